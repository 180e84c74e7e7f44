import {
  claimMismatch,
  DNI_CLAIM,
  isExpired,
  mrzVerdict,
  parseArgentinePdf417,
  type DocumentPage,
  type DocumentPerson,
  type MrzRead,
} from '@/checks/mrz/document-reading';
import { SCENARIO_MARKER, type ErrorCode } from '@/shared/error-codes';
import type { DocumentType } from '@/shared/flow';
import { extensionOf, mimeOf, sniffFormat, type FileFormat } from '@/shared/file-format';
import {
  hammingDistance,
  SAME_PICTURE_MAX_DISTANCE,
  SIMILAR_HASH_MAX_DISTANCE,
  type ImageMetrics,
} from '@/checks/image/image-metrics';
import { IDENTITY_TYPES, zoneShaped, type SideFeatures } from '@/checks/document/document-outline';
import { judgeSide, sameSideTwice, sideCarries } from '@/checks/document/document-side-rules';
import { BACK_PORTRAIT_MIN_SCORE, DOCUMENT_MAX_FACES } from '@/checks/face/face-rules';
import type { Pdf417Read } from '@/checks/document/browser/check-barcode';
import { MAX_FILE_BYTES, MIN_IMAGE_SIDE } from '@/shared/limits';
import type { ClientCheckCode } from './check-codes';
import { COMPRESS_QUALITY } from './compression-plan';
import {
  readImageHeader,
  readTextMarkers,
  stripJpegLocation,
  stripPngLocation,
} from '@/checks/image/browser/image-bytes';
import { selfieShowsDocument } from '@/checks/document/selfie-document';
import { preparePhoto } from './photo-pipeline';
import { fileName, readBytes, readHead, withExtension } from './read-head';

export type ImageKind = 'document' | 'selfie' | 'custom-document';

export interface ImageCheckOptions {
  kind: ImageKind;
  /** The other side of the same document, to refuse the same picture sent twice. */
  otherSide?: { phash: string };
  /** A document side that must show a readable PDF417 barcode (the flow step requires it). */
  pdf417?: boolean;
  /** A document side that must show a readable MRZ (`readsMrz` of `@/checks/mrz/document-reading`). */
  mrz?: boolean;
  /** The document type and country the person chose, against what its MRZ or barcode states. */
  claim?: { type: DocumentType; country: string };
  /** The side the person was asked for: what it must show, and what only the other side shows. */
  page?: DocumentPage;
  /**
   * The step requires a PDF417: the service reads one on a side that may carry it though it is not
   * required there (the Argentine DNI's front, `pdf417Pages`); read here only to tell such a front
   * without a portrait from no document.
   */
  pdf417Step?: boolean;
  /**
   * The metrics of this very file's pixels, measured where it was made (a camera shot,
   * captureFrame): it is not decoded again.
   */
  measured?: ImageMetrics;
}

/** The service's own codes for what a document says about itself, refused here with its prompts. */
export type DocumentReadCode = Extract<
  ErrorCode,
  | 'documentPhoto.sideMismatch'
  | 'documentPhoto.noMrz'
  | 'documentPhoto.badMrz'
  | 'documentPhoto.badPdf417'
  | 'documentPhoto.countryMismatch'
  | 'documentPhoto.typeMismatch'
  | 'documentPhoto.noDocument'
  | 'documentPhoto.croppedDocument'
  | 'documentPhoto.occludedDocument'
  | 'documentPhoto.screenPhoto'
>;

export type ImageRefusal =
  | { ok: false; reason: ClientCheckCode | DocumentReadCode }
  /** The MRZ states an expiry date (YYYY-MM-DD) that has passed. */
  | { ok: false; reason: 'client.expiredDocument'; expiryDate: string };

export type ImageCheckResult =
  | {
      ok: true;
      /** What to upload: the original minus its location data, or a compressed copy. */
      file: File;
      width: number;
      height: number;
      phash: string;
      /**
       * 'pdf' only for a custom document: then width/height are 0 and phash is '', and the caller
       * inspects it with inspectPdf (encryption, pages).
       */
      format: 'jpeg' | 'png' | 'pdf';
      /** Whether `file` is a re-encoded copy. */
      compressed: boolean;
      /** The person the MRZ or barcode states, when one was read. */
      person?: DocumentPerson;
    }
  | ImageRefusal;

const fail = <R extends ClientCheckCode | DocumentReadCode>(reason: R) => ({ ok: false as const, reason });

/** The check the service makes first, from the bytes: format for the field, then size. */
export function checkBasics(
  format: FileFormat | null,
  bytes: number,
  kind: ImageKind,
): { ok: true; format: 'jpeg' | 'png' | 'pdf' } | { ok: false; reason: ClientCheckCode } {
  if (format === 'pdf') {
    if (kind !== 'custom-document') return fail('client.pdfNotAllowed');
  } else if (format !== 'jpeg' && format !== 'png') return fail('client.wrongFormat');
  if (bytes > MAX_FILE_BYTES) return fail('client.tooBig');
  return { ok: true, format };
}

/**
 * Checks a photo or an uploaded image file in the browser with the service's own rules (format by
 * bytes, 50 MB, 600×600 as displayed, and for document photos grayscale, blur and the other side's
 * similarity) and prepares what to upload: large photos are compressed in a worker, others go as
 * they are minus their location metadata (their comments, which carry the samples' scenario
 * markers, are kept).
 */
export async function checkImage(file: Blob, opts: ImageCheckOptions): Promise<ImageCheckResult> {
  const head = await readHead(file);
  const basics = checkBasics(sniffFormat(head), file.size, opts.kind);
  if (!basics.ok) return basics;
  const { format } = basics;
  const named = new File([file], fileName(file, opts.kind, extensionOf[format]), {
    type: mimeOf[format],
    lastModified: file instanceof File ? file.lastModified : Date.now(),
  });
  if (format === 'pdf')
    return { ok: true, file: named, width: 0, height: 0, phash: '', format, compressed: false };

  // The header gives the size without decoding (an unusual one, SOF past the head, does not).
  const size = readImageHeader(head);
  if (size && (size.width < MIN_IMAGE_SIDE || size.height < MIN_IMAGE_SIDE)) return fail('client.tooSmall');
  const markers = readTextMarkers(format === 'png' ? await readBytes(file) : head);

  let upload: File | null = null;
  let metrics: ImageMetrics;
  let compressed = false;
  if (opts.measured) metrics = opts.measured;
  else {
    // One decode: the metrics and, for a large photo (compression-plan.ts), the upload's JPEG.
    const outcome = await preparePhoto(named, {
      size: size && { width: size.width, height: size.height, orientation: size.orientation },
      bytes: file.size,
      encode: false,
      quality: COMPRESS_QUALITY,
      markers,
    });
    if (!outcome) return fail('client.unreadable');
    if (!outcome.ok) return fail('client.tooSmall');
    metrics = outcome.metrics;
    if (outcome.jpeg) {
      compressed = true;
      upload = new File([outcome.jpeg], withExtension(named.name, 'jpg'), {
        type: 'image/jpeg',
        lastModified: named.lastModified,
      });
    }
  }
  // Dropping location data changes no pixel: the metrics of the original still hold.
  upload ??= await withoutLocation(named, format, head);
  if (metrics.width < MIN_IMAGE_SIDE || metrics.height < MIN_IMAGE_SIDE) return fail('client.tooSmall');
  // The service judges colour, sharpness and similarity on document photos only.
  if (opts.kind === 'document') {
    if (metrics.grayscale) return fail('client.grayscale');
    if (metrics.blurry) return fail('client.blurry');
  }
  // A sample whose scenario marker names a code of its input is judged by that marker, in the
  // service as here (the service reports it before any measured code).
  const marked = (family: string) => markers.some((t) => t.includes(`${SCENARIO_MARKER}${family}.`));
  let person: DocumentPerson | undefined;
  if (opts.kind === 'document' && !marked('documentPhoto')) {
    const judged = await judgeDocumentSide(upload, metrics.phash, opts);
    if (!judged.ok) return judged;
    person = judged.person;
  }
  if (person?.expiryDate && isExpired(person.expiryDate))
    return { ok: false, reason: 'client.expiredDocument', expiryDate: person.expiryDate };

  // The face check and its models load on the first selfie only (check-faces.ts).
  if (opts.kind === 'selfie' && !marked('selfiePhoto')) {
    const problem = await judgeSelfie(upload, metrics);
    if (problem) return fail(problem);
  }
  return {
    ok: true,
    file: upload,
    width: metrics.width,
    height: metrics.height,
    phash: metrics.phash,
    format: upload.type === 'image/png' ? 'png' : 'jpeg',
    compressed,
    ...(person ? { person } : {}),
  };
}

/**
 * A selfie judged as the service judges it: a photo of a document (an ID card held up, a printed
 * photo: `selfieShowsDocument` of `@/checks/document/selfie-document`, on the document finder's look
 * and the largest face) before the face's own verdict, as a card's portrait and its ghost image are a
 * card, not two people. A check that cannot run here (no worker, no WebAssembly) leaves its word to
 * the service.
 */
async function judgeSelfie(
  upload: File,
  size: { width: number; height: number },
): Promise<ClientCheckCode | null> {
  const [{ checkSelfieFace }, { lookAtDocument }] = await Promise.all([
    import('./check-faces'),
    import('./check-document'),
  ]);
  const [face, look] = await Promise.all([
    checkSelfieFace(upload).catch(() => null),
    lookAtDocument(upload).catch(() => null),
  ]);
  if (look?.verdict && look.textChars !== undefined) {
    const shown = selfieShowsDocument({
      width: size.width,
      height: size.height,
      outline: look.verdict.kind,
      textChars: look.textChars,
      ...(look.quad ? { quad: look.quad } : {}),
      ...(look.cards ? { cards: look.cards } : {}),
      ...(face?.face ? { face: face.face } : {}),
    });
    if (shown) return 'client.documentAsSelfie';
  }
  return face?.problem ?? null;
}

/** The same file minus its EXIF GPS directory and XMP, without re-encoding a pixel. */
async function withoutLocation(file: File, format: 'jpeg' | 'png', head: Uint8Array): Promise<File> {
  if (format === 'png') {
    const stripped = stripPngLocation(await readBytes(file));
    return stripped.changed ? new File([stripped.bytes as BlobPart], file.name, { type: file.type }) : file;
  }
  const stripped = stripJpegLocation(head) ?? stripJpegLocation(await readBytes(file));
  if (!stripped?.changed) return file;
  return new File([stripped.head as BlobPart, file.slice(stripped.restStart)], file.name, {
    type: file.type,
    lastModified: file.lastModified,
  });
}

type SideJudgement =
  { ok: true; person?: DocumentPerson } | { ok: false; reason: ClientCheckCode | DocumentReadCode };

/**
 * A document side judged as the service judges it, the real cause first: whether it is a document
 * at all and whole (the outline, OpenCV in the document worker); the same picture as the other side;
 * what only the other side shows (a portrait on a back, a zone or barcode on the wrong side:
 * `judgeSide` of `@/checks/document/document-side-rules`); an identity front with no portrait, zone or
 * barcode (`noDocument`); the barcode and zone the step requires (unreadable, bad, another country
 * or type); and only then a picture merely alike the other side (`sameSideTwice`). Each reader
 * loads on the first photo that needs it (the face models on an identity document's side, the
 * OCR only for a band the glyph reader did not read); one that cannot run here leaves its word to
 * the service.
 */
async function judgeDocumentSide(
  upload: File,
  phash: string,
  opts: ImageCheckOptions,
): Promise<SideJudgement> {
  const claim = opts.claim && opts.page ? { ...opts.claim, page: opts.page } : undefined;
  const features: SideFeatures = { portrait: null, zone: null, barcode: null };
  const { findDocumentSide } = await import('./check-document');
  const found = await findDocumentSide(upload).catch(() => null);
  const outline = found?.verdict;
  const looksForPortrait = Boolean(outline && claim && IDENTITY_TYPES.includes(claim.type));
  if (!looksForPortrait) found?.crop?.close();
  // A screen first, as the service judges it: what a screen shows would be refused for the wrong reason.
  if (found?.screen) {
    found.crop?.close();
    return fail('documentPhoto.screenPhoto');
  }
  // Named before what a cover causes, as the service names it (`@/checks/document/occlusion`).
  if (found?.covered) {
    found.crop?.close();
    return fail('documentPhoto.occludedDocument');
  }
  if (outline?.kind === 'none') return fail('documentPhoto.noDocument');
  if (outline?.kind === 'cropped') return fail('documentPhoto.croppedDocument');
  const distance = opts.otherSide?.phash ? hammingDistance(opts.otherSide.phash, phash) : Infinity;
  if (distance <= SAME_PICTURE_MAX_DISTANCE) {
    found?.crop?.close();
    return fail('client.similarSides');
  }
  if (claim && looksForPortrait) {
    const { documentFaces } = await import('./check-faces');
    // A back is looked at as the service looks at it: sure faces on the whole photo, no crop.
    const back = claim.page === 'back';
    if (back) found?.crop?.close();
    const faces = await documentFaces(upload, {
      ...(found?.quad ? { quad: found.quad } : {}),
      ...(found?.crop && !back ? { crop: found.crop } : {}),
      ...(back ? { minScore: BACK_PORTRAIT_MIN_SCORE } : {}),
    }).catch(() => null);
    // A front's portrait is any face on it (a crowd is refused by the service for itself); on a
    // back, one or two sure faces (a portrait and its ghost) are the front's.
    if (faces !== null)
      features.portrait = claim.page === 'front' ? faces > 0 : faces > 0 && faces <= DOCUMENT_MAX_FACES;
    if (judgeSide(claim, features) === 'sideMismatch') return fail('documentPhoto.sideMismatch');
  }
  const identityFront = claim?.page === 'front' && IDENTITY_TYPES.includes(claim.type);
  // Whether this side is a document needs its barcode and zone only where it shows no portrait.
  const undecided = identityFront && features.portrait === false;

  let barcode: Pdf417Read | null | undefined;
  const seenHere = Boolean(opts.pdf417Step && claim && sideCarries(claim).barcode);
  if (opts.pdf417 || (seenHere && undecided)) {
    const { readPdf417 } = await import('@/checks/document/browser/check-barcode');
    barcode = await readPdf417(upload).catch(() => null);
    if (barcode) features.barcode = barcode.found;
  } else if (undecided) features.barcode = false; // the service reads none here either
  let zone: MrzRead | null | undefined;
  if ((opts.mrz && opts.claim) || (undecided && !features.barcode)) {
    const { readMrz } = await import('@/checks/mrz/browser/check-mrz');
    zone = (await readMrz(upload).catch(() => null))?.read ?? null;
    if (zone) features.zone = zone.found && zoneShaped(zone.lines);
  }
  if (claim) {
    const verdict = judgeSide(claim, features);
    if (verdict === 'sideMismatch' || verdict === 'noDocument') return fail(`documentPhoto.${verdict}`);
  }

  let person: DocumentPerson | undefined;
  if (barcode && !barcode.found && opts.pdf417) return fail('client.noPdf417');
  if (barcode?.found) {
    person = barcode.valid ? parseArgentinePdf417(barcode.text) : undefined;
    if (!person) return fail('documentPhoto.badPdf417');
    const mismatch = opts.claim && claimMismatch(opts.claim, DNI_CLAIM);
    if (mismatch) return fail(`documentPhoto.${mismatch}`);
  }
  if (zone && opts.mrz && opts.claim) {
    const verdict = mrzVerdict(zone, opts.claim);
    if (verdict) return fail(`documentPhoto.${verdict}`);
    if (zone.found && zone.valid) person = zone.person;
  }
  // "Same side" comes last, and only for a picture that shows nothing of its own side.
  if (claim ? sameSideTwice(distance, claim, features) : distance <= SIMILAR_HASH_MAX_DISTANCE)
    return fail('client.similarSides');
  return { ok: true, ...(person ? { person } : {}) };
}
