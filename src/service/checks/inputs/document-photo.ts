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
import { judgeSide, sameSideTwice, sideCarries, type SideClaim } from '@/checks/document/document-side-rules';
import { isScreenPhoto } from '@/checks/document/screen-photo';
import { isCovered } from '@/checks/document/occlusion';
import { BACK_PORTRAIT_MIN_SCORE } from '@/checks/face/face-rules';
import type { DocumentType } from '@/shared/flow';
import { hammingDistance, SAME_PICTURE_MAX_DISTANCE } from '@/checks/image/image-metrics';
import { documentFaces, documentPortrait, markNotChecked, whyNotRun } from '../face-checks';
import { readMrz, readMrzBands } from '@/checks/mrz/node/mrz';
import type { FacePixels } from '@/checks/image/node/image';
import type { CheckOutcome, InputFacts, StoredFile } from '@/checks/inputs/node/types';
import { zonePerson } from '@/checks/mrz/node/zone-person';
import type { LayoutSeen } from '@/checks/document/template-matching';
import { alterationOutcome } from '@/checks/document/node/alteration-check';
import {
  portraitOnDocument,
  templateOutcome,
  zoneFormat,
  type PortraitFound,
} from '@/checks/document/node/template-check';
import { layoutsFor } from '@/checks/document/field-layouts';
import { judgePrintedFields, printedLayout } from '../printed-fields';
import { layoutCrops } from '@/checks/viz/node/viz-read';
import type { StatedFields } from '@/checks/viz/printed-fields';
import {
  fail,
  guarded,
  markerFamilies,
  markerMessages,
  noteSources,
  pass,
  readOverMarker,
  type CheckRun,
} from '@/checks/inputs/node/input-outcome';
import { checkPhoto } from './check-photo';

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
