import type { ErrorCode } from '@/shared/error-codes';
import {
  claimMismatch,
  DNI_CLAIM,
  mrzPage,
  mrzVerdict,
  parseArgentinePdf417,
  readsMrz,
  type MrzRead,
} from '@/checks/mrz/document-reading';
import { shapeMismatch, zoneShaped, type SideFeatures } from '@/checks/document/document-outline';
import { SELFIE_DOCUMENT_MESSAGE, selfieShowsDocument } from '@/checks/document/selfie-document';
import { judgeSide, sameSideTwice, sideCarries, type SideClaim } from '@/checks/document/document-side-rules';
import { isScreenPhoto, type ScreenLook } from '@/checks/document/screen-photo';
import { isCovered, type CoverLook } from '@/checks/document/occlusion';
import { BACK_PORTRAIT_MIN_SCORE, DOCUMENT_MAX_FACES } from '@/checks/face/face-rules';
import type { DocumentType } from '@/shared/flow';
import { hammingDistance, SAME_PICTURE_MAX_DISTANCE, type ImageMetrics } from '@/checks/image/image-metrics';
import {
  MAX_VIDEO_DECODED_PIXELS,
  MAX_VIDEO_PIXELS,
  MAX_VIDEO_SECONDS,
  MAX_VIDEO_SIDE,
  MIN_IMAGE_SIDE,
} from '@/shared/limits';
import type { Pdf417Read } from '@/checks/document/node/barcode';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import {
  documentFaces,
  documentPortrait,
  markNotChecked,
  selfieFaceLook,
  videoChallenge,
  videoFaces,
  whyNotRun,
} from './face-checks';
import { readMrz, readMrzBands } from '@/checks/mrz/node/mrz';
import type { MrzBandRead } from '@/checks/mrz/node/mrz-bands';
import { parseStatement } from '@/checks/pdf/node/bank-statement';
import { readImageHeader, type FacePixels, type InspectedDocument } from '@/checks/image/node/image';
import { inspectImageInPool, type ImageRun } from './image-pool';
import { mergeMarkers, parseMarkers, scanFileMarkers, type Markers } from '@/checks/inputs/node/marker';
import { editTrace, MAX_TEXT_PAGES, type PdfInfo } from '@/checks/pdf/node/pdf';
import { readPdf } from '@/checks/pdf/node/pdf-reader';
import type { CheckOutcome, InputFacts, Person, PersonSource, StoredFile } from '@/checks/inputs/node/types';
import { checkContainer } from '@/checks/video/node/video';
import { zonePerson } from '@/checks/mrz/node/zone-person';
import type { LayoutSeen } from '@/checks/document/template-matching';
import type { AlterationMap } from '@/checks/document/alteration';
import { alterationOutcome } from '@/checks/document/node/alteration-check';
import {
  portraitOnDocument,
  templateOutcome,
  zoneFormat,
  type PortraitFound,
} from '@/checks/document/node/template-check';
import type { VizCrop, VizCropJob } from '@/checks/viz/node/viz-crops';
import { layoutsFor } from '@/checks/document/field-layouts';
import { judgePrintedFields, printedLayout } from './printed-fields';
import { layoutCrops } from '@/checks/viz/node/viz-read';
import type { StatedFields } from '@/checks/viz/printed-fields';

/**
 * Whose input it is and when its check is given up: images and video frames wait in turns by
 * verification, and a check that timed out stops what it had started.
 */
export interface CheckRun {
  /** The verification: the decoders and readers take inputs in turns by verification. */
  verification?: string;
  /** Aborted when the check is given up (send-input's time limit). */
  signal?: AbortSignal;
}

export interface DocumentPhotoContext extends CheckRun {
  type: DocumentType;
  country: string;
  page: 'front' | 'back';
  requires: readonly ('mrz' | 'pdf417')[];
  otherSide?: { phash?: string };
  /** The flow compares a selfie or video with the document's portrait, so a portrait must be found. */
  faceRequired?: boolean;
  /** Whether sample markers are read (DEMO_SCENARIOS); off, a file's metadata changes nothing. */
  markers?: boolean;
}

/** Whether sample markers are read (DEMO_SCENARIOS=on, tests and demos only). */
export interface MarkerOption extends CheckRun {
  markers?: boolean;
}

export interface CustomDocumentContext extends MarkerOption {
  page: 'front' | 'back' | 'multi';
  multiPageAllowed: boolean;
}

export interface BankStatementContext extends MarkerOption {
  password?: string;
  country: string;
  institutionId: string;
}

/** Marker codes each input accepts; request-level codes (file names, order) never come from a file. */
const markerFamilies = {
  document: (code: ErrorCode) =>
    code.startsWith('documentPhoto.') && code !== 'documentPhoto.FirstInputNotProcessed',
  selfie: (code: ErrorCode) => code.startsWith('selfiePhoto.'),
  video: (code: ErrorCode) => code.startsWith('voiceVideo.'),
  custom: (code: ErrorCode) =>
    (code.startsWith('documentPhoto.') && code !== 'documentPhoto.FirstInputNotProcessed') ||
    code.startsWith('CustomDocumentPhoto.'),
  bank: (code: ErrorCode) => code.startsWith('bankDocument.') && code !== 'bankDocument.badFileName',
};

/**
 * Generic, person-free reasons for the codes a marker carries; where the code has no reason of its
 * own here it is the code's wire message (`verification/error-messages.ts`).
 */
const markerMessages: Partial<Record<ErrorCode, string>> = {
  'documentPhoto.badText': 'a document field did not pass validation',
  'documentPhoto.unexpectedData': 'the document could not be read',
  'documentPhoto.noText': 'no text was found on the document',
  'documentPhoto.noFace': 'no face was found on the document',
  'documentPhoto.screenPhoto': 'the photo shows a screen, not the document',
  'documentPhoto.noDocument': 'the photo matches no known document',
  'documentPhoto.missingFields': 'the document lacks required fields',
  'documentPhoto.wrongFormat': 'some document fields have an invalid format',
  'documentPhoto.noMrz': 'no machine-readable zone was found',
  'documentPhoto.badMrz': 'the machine-readable zone is damaged',
  'documentPhoto.badPdf417': 'the PDF417 barcode is damaged',
  'documentPhoto.typeMismatch': 'the document is of another type than the one chosen',
  'documentPhoto.countryMismatch': 'the document is from another country than the one chosen',
  'documentPhoto.croppedDocument': 'the document edges are not all visible',
  'documentPhoto.sideMismatch': 'the photo shows the other side of the document',
  'documentPhoto.occludedDocument': 'something covers part of the document',
  'documentPhoto.blurryText': 'The document photo is too blurry.',
  'documentPhoto.smallImageSize': 'The document photo resolution is too low.',
  'documentPhoto.grayscaleImage': 'The document photo is in grayscale.',
  'documentPhoto.noPdf417': 'No PDF417 barcode was found.',
  'documentPhoto.similarImages': 'The same side appears to have been sent twice.',
  'voiceVideo.conversionFailed': 'The video could not be converted.',
  'bankDocument.passwordRequired': 'The bank statement is password-protected; a password is needed.',
  'bankDocument.passwordFailed': 'The password of the bank statement is wrong.',
  'bankDocument.invalidMetadata': 'The bank statement was altered; upload the original file.',
  'bankDocument.statementNotSupported': 'This bank statement template is not supported.',
  'voiceVideo.noFace': 'no face was found in the video',
  'voiceVideo.multipleFaces': 'more than one face was found in the video',
  'selfiePhoto.maskDetected': 'the person wears a mask',
  'selfiePhoto.closedEyes': 'the person has closed eyes',
  'selfiePhoto.noFace': 'no face was found in the selfie',
  'selfiePhoto.multipleFaces': 'more than one face was found in the selfie',
  'selfiePhoto.sunGlasses': 'the person wears sunglasses',
  'selfiePhoto.validationError': 'the selfie was not taken properly',
};

/** The photo's long side over its short side: the document's shape where the finder frames none. */
const photoAspect = (facts: InputFacts) =>
  facts.width && facts.height
    ? Math.max(facts.width, facts.height) / Math.min(facts.width, facts.height)
    : undefined;

/** Document types whose front carries the holder's portrait. */
const portraitTypes = new Set<DocumentType>(['passport', 'national-id', 'driving-license']);

const mismatchMessages = {
  countryMismatch: 'the document is from another country than the one chosen',
  typeMismatch: 'the document is of another type than the one chosen',
};

/**
 * The person of a document: a sample's person marker states what the visual zone shows (there is
 * no OCR of it), so it wins; what the MRZ or barcode read fills the rest, and alone without one.
 */
const readOverMarker = (marker: Person | undefined, read: Person): Person => {
  const extra = { ...read.extra, ...marker?.extra };
  return { ...read, ...marker, ...(Object.keys(extra).length ? { extra } : {}) };
};

/** Records where the person's facts came from; what a marker stated (it wins) stays the marker's. */
function noteSources(facts: InputFacts, person: Person, source: PersonSource) {
  const sources = { ...facts.personSources };
  for (const [key, value] of Object.entries(person))
    if (value && key !== 'extra' && sources[key as keyof Person] !== 'marker')
      sources[key as keyof Person] = source;
  facts.personSources = sources;
}

const fail = (code: ErrorCode, message: string, facts: InputFacts): CheckOutcome => ({
  code,
  message,
  facts,
});
const pass = (facts: InputFacts): CheckOutcome => ({ code: null, facts });

/** The marker's code when this input accepts it, else undefined; records markers in the facts. */
function applyMarkers(markers: Markers, family: (code: ErrorCode) => boolean, facts: InputFacts) {
  if (markers.person) {
    facts.person = markers.person;
    noteSources(facts, markers.person, 'marker');
  }
  if (markers.scenario && family(markers.scenario)) {
    facts.scenario = markers.scenario;
    return markers.scenario;
  }
  return undefined;
}

/** A code with no reason of its own here gets the code's default message (never the marker's name). */
const markerOutcome = (code: ErrorCode, facts: InputFacts): CheckOutcome => ({
  code,
  message: markerMessages[code],
  facts,
});

/** Safety net: bad bytes must yield a code, never an exception. */
async function guarded(onError: ErrorCode, run: (facts: InputFacts) => Promise<CheckOutcome>) {
  const facts: InputFacts = {};
  try {
    return await run(facts);
  } catch {
    return fail(onError, 'the file could not be processed', facts);
  }
}

interface PhotoCheck {
  /** Code for bytes that are not a usable JPEG or PNG photo. */
  unusable: ErrorCode;
  /** Message when the file is not a JPEG or PNG at all. */
  notAPhoto: string;
  /** Code for a photo with a side under MIN_IMAGE_SIDE. */
  small: ErrorCode;
  family: (code: ErrorCode) => boolean;
  /** Read a PDF417 symbol from the same decode. */
  pdf417?: boolean;
  /** Find the MRZ bands in the same decode (when no marker decides). */
  mrz?: boolean;
  /** Keep the decode's pixels for the face checks (when no marker decides). */
  faces?: boolean;
  /** Find the document in the photo (when no marker decides). */
  document?: boolean;
  /** Measure what alteration detection compares (when no marker decides). */
  alteration?: boolean;
  /** Cut these boxes of the document for the printed-field OCR (when no marker decides). */
  viz?: VizCropJob[];
  /** Look for a screen's moiré (when no marker decides). */
  screen?: boolean;
  /** Look for something covering the document (when no marker decides). */
  cover?: boolean;
  /** Facts recorded once the size passes, before the markers. */
  sized?: InputFacts;
  /** Read sample markers (DEMO_SCENARIOS). */
  markers?: boolean;
  /** Whose image it is, and when its check is given up. */
  run?: CheckRun;
}

/** The markers of a file, only where demo scenarios are on (else none, whatever it carries). */
const fileMarkers = async (path: string, on: boolean | undefined, ...found: Markers[]): Promise<Markers> =>
  on ? mergeMarkers(...found, await scanFileMarkers(path)) : {};

/**
 * The steps every photo input takes, in order: format, header and size, markers, pixel metrics,
 * then the marker's code. The metrics are recorded even when a marker decides, so verification data
 * shows them. Returns the outcome that ends the check, or the metrics for the input's own rules.
 */
async function checkPhoto(
  file: StoredFile,
  facts: InputFacts,
  photo: PhotoCheck,
): Promise<
  | { outcome: CheckOutcome }
  | {
      metrics: ImageMetrics;
      pdf417?: Pdf417Read;
      mrzBands?: MrzBandRead[];
      mrzCropBands?: MrzBandRead[];
      faces?: FacePixels;
      facesCrop?: FacePixels;
      document?: InspectedDocument;
      alteration?: AlterationMap | null | { failed: string };
      vizCrops?: VizCrop[];
      screen?: ScreenLook;
      cover?: CoverLook;
    }
> {
  if (file.format !== 'jpeg' && file.format !== 'png') {
    return { outcome: fail(photo.unusable, photo.notAPhoto, facts) };
  }
  const header = await readImageHeader(file.path);
  if (!header.ok) return { outcome: fail(photo.unusable, header.reason, facts) };
  facts.width = header.width;
  facts.height = header.height;
  if (header.width < MIN_IMAGE_SIDE || header.height < MIN_IMAGE_SIDE) {
    return {
      outcome: fail(
        photo.small,
        `the image is ${header.width}×${header.height}; at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} is needed`,
        facts,
      ),
    };
  }
  Object.assign(facts, photo.sized);
  const markers = await fileMarkers(file.path, photo.markers, header.markers);
  const scenario = applyMarkers(markers, photo.family, facts);

  // One bounded decode in a worker thread feeds the metrics and, when asked, the barcode reader,
  // the MRZ band finder and the face checks.
  const run: ImageRun = { owner: photo.run?.verification, signal: photo.run?.signal };
  const measured = await inspectImageInPool(
    {
      path: file.path,
      decodeBytes: header.decodeBytes,
      pdf417: photo.pdf417,
      mrz: !scenario && photo.mrz,
      faces: !scenario && photo.faces,
      document: !scenario && photo.document,
      alteration: !scenario && photo.alteration,
      viz: scenario ? undefined : photo.viz,
      screen: !scenario && photo.screen,
      cover: !scenario && photo.cover,
    },
    run,
  );
  if (!measured.ok) return { outcome: fail(photo.unusable, measured.reason, facts) };
  const { metrics } = measured;
  facts.phash = metrics.phash;
  facts.grayscale = metrics.grayscale;
  facts.blurScore = Math.round(metrics.blurScore * 10) / 10;
  if (scenario) return { outcome: markerOutcome(scenario, facts) };
  if (measured.document) {
    facts.documentOutline = measured.document.verdict;
    if (measured.document.aspect) facts.documentAspect = measured.document.aspect;
  }
  return {
    metrics,
    pdf417: measured.pdf417,
    mrzBands: measured.mrzBands,
    mrzCropBands: measured.mrzCropBands,
    faces: measured.faces,
    facesCrop: measured.facesCrop,
    document: measured.document,
    alteration: measured.alteration,
    vizCrops: measured.vizCrops,
    screen: measured.screen,
    cover: measured.cover,
  };
}

/** Page count and markers of an opened PDF; the marker's outcome when it carries an accepted code. */
async function pdfMarkerOutcome(
  file: StoredFile,
  info: PdfInfo,
  family: (code: ErrorCode) => boolean,
  facts: InputFacts,
  on: boolean | undefined,
): Promise<CheckOutcome | undefined> {
  facts.pageCount = info.pageCount;
  const markers = await fileMarkers(file.path, on, parseMarkers([info.keywords ?? '', info.subject ?? '']));
  const scenario = applyMarkers(markers, family, facts);
  return scenario ? markerOutcome(scenario, facts) : undefined;
}

export function checkDocumentPhoto(file: StoredFile, ctx: DocumentPhotoContext): Promise<CheckOutcome> {
  return guarded('documentPhoto.unexpectedData', async (facts) => {
    // PDF417 sits where the type's table says (`pdf417Pages`: the Argentine DNI's on either side);
    // only a back without a code is refused: see README.md.
    const claim: SideClaim = { type: ctx.type, country: ctx.country, page: ctx.page };
    const wantsPdf417 = ctx.requires.includes('pdf417');
    const readsPdf417 = wantsPdf417 && (ctx.page === 'back' || sideCarries(claim).barcode);
    const wantsFace = ctx.page === 'front' && portraitTypes.has(ctx.type);
    // The back of a card with a portrait on its front shows none: a portrait there is the front.
    const portraitMeansFront = ctx.page === 'back' && portraitTypes.has(ctx.type);
    // The front of a card whose zone is on its back shows none: a zone there is the back.
    const zoneMeansBack = ctx.page === 'front' && mrzPage(ctx.type, ctx.country) === 'back';
    // The side that carries the zone is read for the document's fields where the flow does not
    // require the zone and no barcode is read there (the INE's back: holder, CIC, OCR number);
    // only a required zone refuses a photo.
    const readsZoneForFields = !readsMrz(ctx) && !readsPdf417 && mrzPage(ctx.type, ctx.country) === ctx.page;
    // The printed fields of the layouts this side may show (`@/checks/document/field-layouts`): their
    // crops are cut with the one decode; which layout is read is told by the document's shape.
    const layouts = layoutsFor(ctx.type, ctx.country, ctx.page);
    const photo = await checkPhoto(file, facts, {
      viz: layouts.flatMap(layoutCrops),
      pdf417: readsPdf417,
      mrz: readsMrz(ctx) || zoneMeansBack || wantsFace || readsZoneForFields,
      faces: wantsFace || portraitMeansFront,
      document: true,
      alteration: wantsFace,
      screen: true,
      cover: true,
      unusable: 'documentPhoto.unexpectedData',
      notAPhoto: 'a document photo must be a JPEG or PNG image',
      small: 'documentPhoto.smallImageSize',
      family: markerFamilies.document,
      markers: ctx.markers,
      run: ctx,
    });
    if ('outcome' in photo) return photo.outcome;
    const { metrics } = photo;

    // Before anything else is judged: a screen's photo would otherwise be refused for what the
    // screen shows (no zone, no document), and the person told to retake the same screen.
    if (photo.screen) {
      facts.screenShare = photo.screen.share;
      if (isScreenPhoto(photo.screen))
        return fail(
          'documentPhoto.screenPhoto',
          `${markerMessages['documentPhoto.screenPhoto']} (colour ripples of a screen over ${Math.round(photo.screen.share * 100)} % of the photo)`,
          facts,
        );
    }
    if (metrics.grayscale) return fail('documentPhoto.grayscaleImage', 'the photo is in grayscale', facts);
    if (metrics.blurry) return fail('documentPhoto.blurryText', 'the photo is too blurry to read', facts);
    // Something over the document (`@/checks/document/occlusion`), named before what it causes: a
    // cover hides the outline (noDocument, croppedDocument), the zone, the portrait or a field.
    if (photo.cover) {
      facts.coverBlocks = { inside: photo.cover.inside, outside: photo.cover.outside };
      if (isCovered(photo.cover, photo.document?.textChars ?? 0))
        return fail(
          'documentPhoto.occludedDocument',
          `${markerMessages['documentPhoto.occludedDocument']} (an object or a hand reaches over its print)`,
          facts,
        );
    }
    const outline = photo.document?.verdict;
    if (outline === 'none')
      return fail('documentPhoto.noDocument', markerMessages['documentPhoto.noDocument'] ?? '', facts);
    if (outline === 'cropped')
      return fail(
        'documentPhoto.croppedDocument',
        markerMessages['documentPhoto.croppedDocument'] ?? '',
        facts,
      );
    // The same side twice (`sameSideTwice`): the same picture at once; a picture merely alike only
    // once its own features are known (at the end), since cards of one design look alike.
    const distance = ctx.otherSide?.phash ? hammingDistance(ctx.otherSide.phash, metrics.phash) : Infinity;
    const sameSide = () =>
      fail('documentPhoto.similarImages', 'The same side appears to have been sent twice.', facts);
    if (distance <= SAME_PICTURE_MAX_DISTANCE) return sameSide();
    // What only the other side shows (`judgeSide`): a back's portrait (one or two sure faces on the
    // found document: a crowd is no card's portrait, BACK_PORTRAIT_MIN_SCORE), a front's zone read whole by the glyph reader
    // alone (no OCR is spent on a front for it).
    let backPortrait: boolean | null = null;
    if (portraitMeansFront && photo.faces) {
      const seen = await documentFaces(photo.faces, {}, photo.document?.quad, BACK_PORTRAIT_MIN_SCORE).catch(
        () => undefined,
      );
      backPortrait = seen === undefined ? null : seen === null;
    }
    const glyphZone =
      zoneMeansBack && photo.mrzBands?.some((band) => band.byGlyphs?.found && band.byGlyphs.valid)
        ? true
        : null;
    if (judgeSide(claim, { portrait: backPortrait, zone: glyphZone, barcode: null }) === 'sideMismatch') {
      return fail(
        'documentPhoto.sideMismatch',
        backPortrait
          ? 'the photo shows the front, with its portrait, not the back'
          : 'the photo shows the back, with its machine-readable zone, not the front',
        facts,
      );
    }
    // An identity document's front shows its holder's portrait, a zone or a barcode: a page of
    // print with none of them (a screenshot of text, a letter on a table) is no document, whatever
    // its outline (`identityFront` through `judgeSide`). Each is looked for once here and its
    // reading kept for the codes below.
    let zoneRead: { mrz: MrzRead; seen: boolean } | undefined;
    // What the zone or the barcode read on this side states: the printed fields' reference.
    let stated: StatedFields | undefined;
    const readZone = async () => {
      if (zoneRead) return zoneRead;
      let mrz = photo.mrzBands ? await readMrzBands(photo.mrzBands) : await readMrz(file.path);
      const shaped = (read: MrzRead) => read.found && zoneShaped(read.lines);
      let seen = shaped(mrz);
      // The straightened document's zone stands only where it passes its check digits and the
      // whole photo's does not: the finder never makes a reading worse.
      if (!(mrz.found && mrz.valid) && photo.mrzCropBands?.length) {
        const fromCrop = await readMrzBands(photo.mrzCropBands);
        seen ||= shaped(fromCrop);
        if (fromCrop.found && fromCrop.valid) mrz = fromCrop;
      }
      return (zoneRead = { mrz, seen });
    };
    let faces: Awaited<ReturnType<typeof documentFaces>> = null;
    let portraitFound: PortraitFound | undefined;
    let features: SideFeatures = { portrait: backPortrait, zone: glyphZone, barcode: null };
    if (wantsFace) {
      // A portrait check that cannot run is no refusal: the front is kept, marked not checked.
      let ran = true;
      const looked = async (
        image: string | FacePixels,
        on: PortraitFound['on'],
        inside?: { x: number; y: number }[],
      ) => {
        const seen = await documentPortrait(image, facts, inside).catch((error: unknown) => {
          markNotChecked(facts, 'faces', `the portrait could not be looked for: ${whyNotRun(error)}`);
          ran = false;
          return { verdict: null, box: undefined };
        });
        if (seen.box) portraitFound = { box: seen.box, on };
        return seen.verdict;
      };
      // On the whole photo, the portrait is a face on the found document; then on the document
      // straightened, where a portrait far in the frame is larger.
      const quad = photo.document?.quad;
      faces = await looked(photo.faces ?? file.path, { photo: { quad } }, quad);
      if (faces === 'noFace' && photo.facesCrop) {
        const { width, height } = photo.facesCrop;
        faces = await looked(photo.facesCrop, { straightened: { width, height } });
      }
      const portrait = ran ? faces !== 'noFace' : null;
      // A zone is read on any front: passports and TD2 cards print it there (the OCR runs only on a
      // front without a portrait, or where the flow reads the zone anyway).
      const zone = portrait && !readsMrz(ctx) ? null : (await readZone()).seen;
      const barcode = readsPdf417 ? (photo.pdf417?.found ?? false) : false;
      features = { portrait, zone, barcode };
      const verdict = judgeSide(claim, features);
      if (verdict === 'sideMismatch') {
        return fail('documentPhoto.sideMismatch', markerMessages['documentPhoto.sideMismatch'] ?? '', facts);
      }
      if (verdict === 'noDocument') {
        return fail(
          'documentPhoto.noDocument',
          'the photo shows no portrait, machine-readable zone or barcode of an identity document',
          facts,
        );
      }
    } else if (readsPdf417) features = { ...features, barcode: photo.pdf417?.found ?? false };

    // The outline's shape names the type only where nothing read from the document decides: a zone
    // or barcode that is read, or that the flow requires and is missing, is the stronger word.
    const wrongShape = shapeMismatch(photo.document?.aspect, ctx.type);
    const typeByShape = () =>
      fail('documentPhoto.typeMismatch', `${mismatchMessages.typeMismatch} (its shape)`, facts);

    if (readsPdf417) {
      const read = photo.pdf417 ?? { found: false as const };
      facts.pdf417 = read.found;
      if (!read.found && ctx.page === 'back') {
        return fail('documentPhoto.noPdf417', 'no PDF417 barcode was found on the back', facts);
      }
      if (read.found) {
        const dni = read.valid ? parseArgentinePdf417(read.text) : undefined;
        if (!dni)
          return fail('documentPhoto.badPdf417', 'the PDF417 barcode does not hold a DNI record', facts);
        facts.person = readOverMarker(facts.person, dni);
        noteSources(facts, dni, 'pdf417');
        stated = dni;
        const mismatch = claimMismatch(ctx, DNI_CLAIM);
        if (mismatch) return fail(`documentPhoto.${mismatch}`, mismatchMessages[mismatch], facts);
      }
    }

    if (readsMrz(ctx)) {
      const { mrz } = await readZone();
      facts.mrz = mrz.found && mrz.valid;
      if (mrz.found && mrz.valid) {
        facts.person = readOverMarker(facts.person, zonePerson(mrz));
        noteSources(facts, mrz.person, 'mrz');
        stated = mrz.person;
      }
      const verdict = mrzVerdict(mrz, ctx);
      if (verdict === 'noMrz')
        return fail('documentPhoto.noMrz', markerMessages['documentPhoto.noMrz'] ?? '', facts);
      if (verdict === 'badMrz')
        return fail('documentPhoto.badMrz', 'the machine-readable zone fails its check digits', facts);
      if (verdict) return fail(`documentPhoto.${verdict}`, mismatchMessages[verdict], facts);
    } else if (readsZoneForFields) {
      // Not required: a zone unread, failing its digits or of another document adds nothing, and
      // an OCR that cannot run refuses nothing.
      const mrz = (await readZone().catch(() => undefined))?.mrz;
      if (mrz?.found && mrz.valid && !mrzVerdict(mrz, ctx)) {
        facts.person = readOverMarker(facts.person, zonePerson(mrz));
        noteSources(facts, mrz.person, 'mrz');
        stated = mrz.person;
      }
    }

    if (wrongShape && !readsMrz(ctx) && !facts.pdf417) return typeByShape();

    // The printed fields against the zone or barcode read on this side (`judgePrintedFields`).
    const layout = printedLayout(layouts, facts.documentAspect ?? photoAspect(facts));
    if (layout && photo.vizCrops) {
      const printed = await judgePrintedFields(layout, photo.vizCrops, ctx.country, stated, facts);
      // "No text" speaks of a document the finder framed: without an outline the field boxes fall
      // on whatever the photo shows, where reading nothing says nothing of the document.
      const framed = facts.documentAspect !== undefined;
      if (printed && (printed.code !== 'noText' || framed))
        return fail(`documentPhoto.${printed.code}`, printed.message, facts);
    }

    if (wantsFace) {
      if (faces === 'noFace' && ctx.faceRequired) {
        return fail('documentPhoto.noFace', markerMessages['documentPhoto.noFace'] ?? '', facts);
      }
      if (faces === 'crowd') {
        return fail(
          'documentPhoto.noDocument',
          `the photo shows ${facts.faces} faces, not a document's portrait`,
          facts,
        );
      }
    }
    if (sameSideTwice(distance, claim, features)) return sameSide();
    if (wantsFace) {
      // The layout seen on an identity document's front, matched against its known revisions.
      const zoneLines = zoneRead?.seen && zoneRead.mrz.found ? zoneRead.mrz.lines : undefined;
      const seen: LayoutSeen = {
        page: 'front',
        aspect: facts.documentAspect,
        portrait: portraitFound
          ? portraitOnDocument(portraitFound, { width: facts.width ?? 1, height: facts.height ?? 1 })
          : faces === 'noFace'
            ? null
            : undefined,
        zone: zoneLines ? zoneFormat(zoneLines) : undefined,
        barcode: facts.pdf417,
      };
      facts.documentChecks = {
        ...facts.documentChecks,
        'template-matching': templateOutcome(claim, seen, { today: new Date().toISOString().slice(0, 10) }),
        'alteration-detection': alterationOutcome(photo.alteration, portraitFound, photo.document?.quad),
      };
    }
    return pass(facts);
  });
}

export function checkSelfiePhoto(file: StoredFile, options: MarkerOption = {}): Promise<CheckOutcome> {
  return guarded('selfiePhoto.validationError', async (facts) => {
    const photo = await checkPhoto(file, facts, {
      faces: true,
      document: true,
      unusable: 'selfiePhoto.validationError',
      notAPhoto: 'a selfie must be a JPEG or PNG image',
      small: 'selfiePhoto.validationError',
      family: markerFamilies.selfie,
      markers: options.markers,
      run: options,
    });
    if ('outcome' in photo) return photo.outcome;
    // A face check that cannot run (the worker died, a model did not load) is no refusal of the
    // person: the selfie is kept, marked not checked, and the verification goes to a review.
    const looked = await selfieFaceLook(photo.faces ?? file.path, facts).catch((error: unknown) => {
      markNotChecked(facts, 'faces', `the faces could not be looked at: ${whyNotRun(error)}`);
      return null;
    });
    // A photo of an ID card, a passport or any printed picture of a face is no selfie, whatever
    // face it shows (`selfieShowsDocument`: its print, or its face a small portrait on a document's
    // outline or far among print). It comes before the face's own verdict: a card's portrait with
    // its ghost image is a card, not two people; more faces than a card shows (a crowd, a group) are
    // several people first. The spec has no code for a selfie that is not the person's live face:
    // it was not taken properly.
    if (photo.document && !((facts.faces ?? 0) > DOCUMENT_MAX_FACES)) {
      const shown = selfieShowsDocument({
        width: facts.width ?? 1,
        height: facts.height ?? 1,
        outline: photo.document.verdict,
        textChars: photo.document.textChars,
        ...(photo.document.quad ? { quad: photo.document.quad } : {}),
        ...(photo.document.cards ? { cards: photo.document.cards } : {}),
        ...(looked?.face ? { face: looked.face } : {}),
      });
      if (shown) {
        facts.selfieDocument = shown;
        return fail('selfiePhoto.validationError', SELFIE_DOCUMENT_MESSAGE, facts);
      }
    }
    const verdict = looked?.verdict;
    return verdict
      ? fail(`selfiePhoto.${verdict}`, markerMessages[`selfiePhoto.${verdict}`] ?? '', facts)
      : pass(facts);
  });
}

/**
 * The words a person is told when a challenge attempt fails: plain, and never a measured figure
 * or a pass mark (they would tell someone who replays a clip how near it came). What was seen,
 * and when, is kept for staff in `facts.challenge.reason`.
 */
export const challengeRefusals = {
  notPerformed:
    'The movements asked were not seen at the moments they were asked. Record again, following the screen.',
  unasked:
    'A movement that was not asked was seen. Record again and make only the movements the screen asks, when it asks them.',
  tooLong: 'This recording is not the one made for this challenge. Record again.',
  noFace: 'Your face was not seen during much of the recording. Record again, facing the camera.',
  multipleFaces: 'More than one face was seen in the recording. Record again, alone in the picture.',
} as const;

/** The verification's challenge for this video: the current attempt, or none left. */
export interface VideoChallenge {
  /** Null when the stored challenge could not be read (then `spent`). */
  challenge: LivenessChallenge | null;
  /** Every attempt was used (or the stored challenge could not be read): the video goes to a review. */
  spent: boolean;
}

/**
 * A liveness video: a whole container, a face in its frames (never two), and, when the
 * verification has an active challenge, exactly the asked movements at their cues. The spec has
 * no code for a challenge left undone: it is the "not taken properly" of the selfie codes. The
 * last attempt's failure is not refused: the video is kept with the failure in its facts, and
 * the liveness step then sends the verification to a review (as when no attempt is left).
 */
export function checkSelfieVideo(
  file: StoredFile,
  asked?: VideoChallenge | null,
  options: MarkerOption = {},
): Promise<CheckOutcome> {
  return guarded('voiceVideo.conversionFailed', async (facts) => {
    const container = await checkContainer(file.path, file.format);
    if (!container.ok) return fail('voiceVideo.conversionFailed', container.reason, facts);
    if (container.durationSeconds !== undefined)
      facts.durationSeconds = Math.round(container.durationSeconds * 100) / 100;
    const beyond = beyondVideoLimits(container);
    if (beyond) return fail('voiceVideo.conversionFailed', beyond, facts);
    const scenario = applyMarkers(await fileMarkers(file.path, options.markers), markerFamilies.video, facts);
    if (scenario) return markerOutcome(scenario, facts);
    const run = { owner: options.verification, signal: options.signal };
    const verdict = await videoFaces(file.path, facts, run);
    if (verdict) return fail(`voiceVideo.${verdict}`, markerMessages[`voiceVideo.${verdict}`] ?? '', facts);
    if (!asked) return pass(facts);
    const { challenge } = asked;
    const about = {
      actions: [...(challenge?.actions ?? [])],
      ...(challenge ? { attempt: challenge.attempt } : {}),
    };
    if (asked.spent || !challenge) {
      facts.challenge = { ...about, result: 'failed', reason: 'no attempt of the challenge was left' };
      return pass(facts);
    }
    const done = await videoChallenge(file.path, challenge, facts, { run });
    if (done.ok === 'unchecked') {
      facts.challenge = { ...about, result: 'unchecked', reason: done.reason };
      return pass(facts);
    }
    if (done.ok) {
      facts.challenge = { ...about, result: 'passed' };
      return pass(facts);
    }
    facts.challenge = { ...about, result: 'failed', reason: done.reason };
    if (challenge.attempt >= challenge.attempts) return pass(facts);
    const words = challengeRefusals[done.code];
    return done.code === 'noFace' || done.code === 'multipleFaces'
      ? fail(`voiceVideo.${done.code}`, words, facts)
      : fail('selfiePhoto.validationError', words, facts);
  });
}

/**
 * What the container's header declares beyond the service's bounds (decoding is never tried on
 * it): a length over MAX_VIDEO_SECONDS or of zero, frames over MAX_VIDEO_SIDE or MAX_VIDEO_PIXELS,
 * or more pixels in all its frames than MAX_VIDEO_DECODED_PIXELS.
 */
function beyondVideoLimits(container: {
  durationSeconds?: number;
  width?: number;
  height?: number;
  frames?: number;
}) {
  const { durationSeconds, width, height, frames } = container;
  if (durationSeconds !== undefined && !(durationSeconds > 0)) return 'the video declares a length of zero';
  if (durationSeconds !== undefined && durationSeconds > MAX_VIDEO_SECONDS)
    return `the video declares ${Math.round(durationSeconds)} s; at most ${MAX_VIDEO_SECONDS} s are accepted`;
  if (
    width !== undefined &&
    height !== undefined &&
    (width > MAX_VIDEO_SIDE || height > MAX_VIDEO_SIDE || width * height > MAX_VIDEO_PIXELS)
  )
    return `the video declares frames of ${width}×${height}; at most ${MAX_VIDEO_SIDE} px a side are accepted`;
  if (
    width !== undefined &&
    height !== undefined &&
    frames !== undefined &&
    frames * width * height > MAX_VIDEO_DECODED_PIXELS
  )
    return `the video declares ${frames} frames of ${width}×${height}, more than the service decodes in one video (${MAX_VIDEO_SECONDS} s at 1080p and 30 frames a second)`;
  return null;
}

/**
 * A PDF that could not be read (out of time, no reader) is neither refused (nothing is known
 * against it) nor passed: it is accepted with `notChecked.pdf`, and processing reports the step it
 * feeds as not checked, so the verification ends in `reviewNeeded`.
 */
function notCheckedPdf(reason: string, facts: InputFacts): CheckOutcome {
  facts.notChecked = { ...facts.notChecked, pdf: reason };
  return pass(facts);
}

export function checkCustomDocument(file: StoredFile, ctx: CustomDocumentContext): Promise<CheckOutcome> {
  return guarded('documentPhoto.unexpectedData', async (facts) => {
    if (file.format === 'pdf') {
      const opened = await readPdf(file.path, { textPages: 5, owner: ctx.verification });
      if (!opened.ok && opened.reason === 'notChecked') return notCheckedPdf(opened.message, facts);
      if (!opened.ok) return fail('documentPhoto.unexpectedData', opened.message, facts);
      const marked = await pdfMarkerOutcome(file, opened.info, markerFamilies.custom, facts, ctx.markers);
      if (marked) return marked;
      if (opened.info.pageCount > 1 && !ctx.multiPageAllowed) {
        return fail(
          'CustomDocumentPhoto.multiPageInputError',
          `the PDF has ${opened.info.pageCount} pages; this document takes one page`,
          facts,
        );
      }
      const text = opened.lines.join('\n').trim();
      if (text) facts.text = text.slice(0, 4000);
      return pass(facts);
    }
    const photo = await checkPhoto(file, facts, {
      unusable: 'documentPhoto.unexpectedData',
      notAPhoto: 'a custom document must be an image or a PDF',
      small: 'documentPhoto.smallImageSize',
      family: markerFamilies.custom,
      sized: { pageCount: 1 },
      markers: ctx.markers,
      run: ctx,
    });
    return 'outcome' in photo ? photo.outcome : pass(facts);
  });
}

export function checkBankStatement(file: StoredFile, ctx: BankStatementContext): Promise<CheckOutcome> {
  return guarded('bankDocument.statementNotSupported', async (facts) => {
    if (file.format !== 'pdf') {
      // No OCR here: only a marker can say more about a photographed statement.
      const scenario = applyMarkers(await fileMarkers(file.path, ctx.markers), markerFamilies.bank, facts);
      if (scenario) return markerOutcome(scenario, facts);
      return fail('bankDocument.statementNotSupported', 'only PDF statements with text can be read', facts);
    }
    const opened = await readPdf(file.path, {
      password: ctx.password,
      textPages: MAX_TEXT_PAGES,
      owner: ctx.verification,
    });
    if (!opened.ok && opened.reason === 'notChecked') return notCheckedPdf(opened.message, facts);
    if (!opened.ok) {
      if (opened.reason === 'needPassword' && !ctx.password) {
        return fail(
          'bankDocument.passwordRequired',
          'The bank statement is password-protected; a password is needed.',
          facts,
        );
      }
      if (opened.reason === 'needPassword' || opened.reason === 'wrongPassword') {
        return fail('bankDocument.passwordFailed', 'The password of the bank statement is wrong.', facts);
      }
      return fail('bankDocument.statementNotSupported', opened.message, facts);
    }
    const marked = await pdfMarkerOutcome(file, opened.info, markerFamilies.bank, facts, ctx.markers);
    if (marked) return marked;
    const trace = editTrace(opened.info);
    if (trace) return fail('bankDocument.invalidMetadata', trace, facts);
    const parsed = parseStatement(opened.lines);
    if (!parsed.ok) return fail('bankDocument.statementNotSupported', parsed.reason, facts);
    facts.bankStatement = parsed.statement;
    return pass(facts);
  });
}
