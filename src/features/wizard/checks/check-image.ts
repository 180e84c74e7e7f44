import {
  claimMismatch,
  DNI_CLAIM,
  isExpired,
  mrzVerdict,
  parseArgentinePdf417,
  type DocumentPerson,
} from '@/shared/document-reading';
import { SCENARIO_MARKER, type ErrorCode } from '@/shared/error-codes';
import type { DocumentType } from '@/shared/flow';
import { extensionOf, mimeOf, sniffFormat, type FileFormat } from '@/shared/file-format';
import {
  hammingDistance,
  SAME_PICTURE_MAX_DISTANCE,
  SIMILAR_HASH_MAX_DISTANCE,
  type ImageMetrics,
} from '@/shared/image-metrics';
import { MAX_FILE_BYTES, MIN_IMAGE_SIDE } from '@/shared/limits';
import type { ClientCheckCode } from './check-codes';
import { COMPRESS_QUALITY } from './compression-plan';
import { readImageHeader, readTextMarkers, stripJpegLocation, stripPngLocation } from './image-bytes';
import { preparePhoto } from './photo-pipeline';
import { fileName, readBytes, readHead, withExtension } from './read-head';

export type ImageKind = 'document' | 'selfie' | 'custom-document';

export interface ImageCheckOptions {
  kind: ImageKind;
  /** The other side of the same document, to refuse the same picture sent twice. */
  otherSide?: { phash: string };
  /** A document side that must show a readable PDF417 barcode (the flow step requires it). */
  pdf417?: boolean;
  /** A document side that must show a readable MRZ (`readsMrz` of `@/shared/document-reading`). */
  mrz?: boolean;
  /** The document type and country the person chose, against what its MRZ or barcode states. */
  claim?: { type: DocumentType; country: string };
  /**
   * The metrics of this very file's pixels, measured where it was made (a camera shot,
   * captureFrame): it is not decoded again.
   */
  measured?: ImageMetrics;
}

/** The service's own codes for what a document says about itself, refused here with its prompts. */
export type DocumentReadCode = Extract<
  ErrorCode,
  | 'documentPhoto.noMrz'
  | 'documentPhoto.badMrz'
  | 'documentPhoto.badPdf417'
  | 'documentPhoto.countryMismatch'
  | 'documentPhoto.typeMismatch'
  | 'documentPhoto.noDocument'
  | 'documentPhoto.croppedDocument'
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
  // Whether it is a document at all comes before any reading (the finder, OpenCV in its worker,
  // loads on the first document photo).
  if (opts.kind === 'document' && !marked('documentPhoto')) {
    const { findDocument } = await import('./check-document');
    const outline = await findDocument(upload).catch(() => null);
    if (outline?.kind === 'none') return fail('documentPhoto.noDocument');
    if (outline?.kind === 'cropped') return fail('documentPhoto.croppedDocument');
  }
  // "Same side" comes last: a barcode or zone that is unreadable or names another document is the
  // real cause on a picture that merely looks like the other side; only the same picture taken
  // twice explains a missing barcode or zone by being the other side.
  const distance = opts.otherSide?.phash ? hammingDistance(opts.otherSide.phash, metrics.phash) : Infinity;
  const similar = distance <= SIMILAR_HASH_MAX_DISTANCE;
  const missing = (code: 'client.noPdf417' | 'documentPhoto.noMrz') =>
    fail(distance <= SAME_PICTURE_MAX_DISTANCE ? 'client.similarSides' : code);
  // The barcode reader and the OCR load on the first photo of a side that requires them.
  let person: DocumentPerson | undefined;
  if (opts.kind === 'document' && opts.pdf417 && !marked('documentPhoto')) {
    const { readPdf417 } = await import('./check-barcode');
    // A browser that cannot run the reader leaves the judgement to the service.
    const read = await readPdf417(upload).catch(() => null);
    if (read && !read.found) return missing('client.noPdf417');
    if (read?.found) {
      person = read.valid ? parseArgentinePdf417(read.text) : undefined;
      if (!person) return fail('documentPhoto.badPdf417');
      const mismatch = opts.claim && claimMismatch(opts.claim, DNI_CLAIM);
      if (mismatch) return fail(`documentPhoto.${mismatch}`);
    }
  }
  if (opts.kind === 'document' && opts.mrz && opts.claim && !marked('documentPhoto')) {
    const { readMrz } = await import('./check-mrz');
    const mrz = await readMrz(upload).catch(() => null);
    if (mrz) {
      const verdict = mrzVerdict(mrz.read, opts.claim);
      if (verdict === 'noMrz') return missing('documentPhoto.noMrz');
      if (verdict) return fail(`documentPhoto.${verdict}`);
      if (mrz.read.found && mrz.read.valid) person = mrz.read.person;
    }
  }
  if (similar) return fail('client.similarSides');
  if (person?.expiryDate && isExpired(person.expiryDate))
    return { ok: false, reason: 'client.expiredDocument', expiryDate: person.expiryDate };

  // The face check and its models load on the first selfie only (check-faces.ts).
  if (opts.kind === 'selfie' && !marked('selfiePhoto')) {
    const { checkSelfieFace } = await import('./check-faces');
    const face = await checkSelfieFace(upload).catch(() => null);
    // A browser that cannot run the models (no WebAssembly) leaves the judgement to the service.
    if (face?.problem) return fail(face.problem);
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
