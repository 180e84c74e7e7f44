import { imageMetrics, type ImageMetrics } from '@/shared/image-metrics';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import { compressionPlan, metricsDecodeSize, type Size } from './compression-plan';
import { addJpegComments } from './image-bytes';

/** What to make of one photo: a file (decoded here) or a camera frame (already pixels). */
export interface PhotoJob {
  /** A file's oriented size from its header, when it could be read without decoding. */
  size?: Size | null;
  /** The file's size in bytes (0 for a camera frame). */
  bytes: number;
  /** Encode a JPEG even when the plan keeps the size (a camera frame has no file yet). */
  encode: boolean;
  quality: number;
  /** The original's scenario markers, written back as JPEG comments into a re-encoded copy. */
  markers: readonly string[];
}

export type PhotoOutcome =
  | {
      ok: true;
      /** The size of what is uploaded: the re-encoded copy's, or the original's as displayed. */
      width: number;
      height: number;
      metrics: ImageMetrics;
      /** The re-encoded copy (orientation applied, no metadata but the markers), or null: keep the file. */
      jpeg: Blob | null;
    }
  | { ok: false; width: number; height: number };

type Canvas = OffscreenCanvas | HTMLCanvasElement;

const canvasOf = ({ width, height }: Size): Canvas =>
  typeof OffscreenCanvas === 'function'
    ? new OffscreenCanvas(width, height)
    : Object.assign(document.createElement('canvas'), { width, height });

function draw(canvas: Canvas, bitmap: ImageBitmap, readBack: boolean) {
  const context = canvas.getContext('2d', readBack ? { willReadFrequently: true } : {}) as
    OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!context) throw new Error('no 2d context');
  context.imageSmoothingQuality = smoothingFor(bitmap.width / canvas.width);
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return context;
}

const encodeJpeg = (canvas: Canvas, quality: number): Promise<Blob> =>
  'convertToBlob' in canvas
    ? canvas.convertToBlob({ type: 'image/jpeg', quality })
    : new Promise((resolve, reject) =>
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no JPEG'))), 'image/jpeg', quality),
      );

/**
 * Smoothing for a downscale by `factor`: bilinear ('low') samples every source pixel up to 2×;
 * beyond, mipmaps ('medium') keep the fine print from aliasing. 'high' costs ~100 ms more on a
 * 12 MP photo in Chromium for no difference the service sees.
 */
const smoothingFor = (factor: number): ImageSmoothingQuality => (factor <= 2 ? 'low' : 'medium');

/**
 * One decode per photo: the file is decoded once, upright (EXIF orientation applied) and, when it
 * is to be shrunk and its header gave its size, straight at the planned size (createImageBitmap's
 * resizeWidth/resizeHeight, done by the browser's decoder, off this thread; where that is not
 * supported the full bitmap is scaled when drawn). From those pixels come the service's own
 * metrics (@/shared/image-metrics, drawn at the size the service decodes at for them) and, when
 * the plan says so or for a camera frame, one JPEG encode. Runs in photo-worker.ts, or on the page
 * where OffscreenCanvas is missing.
 *
 * Measured in Chromium's worker on a 12 MP photo (4000×3000 to 1920×2560 then, a loaded 2-core machine):
 * decoding at the planned size with resizeQuality 'low' cost no more than the full decode and
 * saved ~40 ms of drawing (the draw before the encode becomes a copy); 'medium' and 'high' cost
 * +140 and +200 ms; WebCodecs' ImageDecoder at a reduced size decoded no faster.
 */
export async function runPhotoJob(source: Blob | ImageBitmap, job: PhotoJob): Promise<PhotoOutcome> {
  const header = source instanceof Blob ? (job.size ?? null) : null;
  const planned = header && compressionPlan({ ...header, bytes: job.bytes });
  const bitmap =
    source instanceof Blob
      ? await createImageBitmap(source, {
          imageOrientation: 'from-image',
          ...(header && planned
            ? {
                resizeWidth: planned.width,
                resizeHeight: planned.height,
                resizeQuality: smoothingFor(header.width / planned.width),
              }
            : {}),
        })
      : source;
  const original = header && planned ? header : { width: bitmap.width, height: bitmap.height };
  const plan = planned ?? compressionPlan({ ...original, bytes: job.bytes });
  try {
    // A camera frame under the minimum is still encoded: its metrics say tooSmall, as for a file.
    if (!job.encode && (original.width < MIN_IMAGE_SIDE || original.height < MIN_IMAGE_SIDE))
      return { ok: false, ...original };
    const upload = plan ?? original;
    const encode = plan !== null || job.encode;
    // Started before the metrics: where the browser encodes off this thread, the two overlap.
    const jpeg = encode
      ? encodeJpeg(draw(canvasOf(upload), bitmap, false).canvas as Canvas, job.quality).catch(() => null)
      : null;
    const small = metricsDecodeSize(upload);
    const pixels = draw(canvasOf(small), bitmap, true).getImageData(0, 0, small.width, small.height);
    const metrics = {
      ...imageMetrics({ data: pixels.data, width: small.width, height: small.height, channels: 4 }),
      ...upload,
    };
    if (!jpeg) return { ok: true, ...upload, metrics, jpeg: null };
    const encoded = await jpeg;
    if (!encoded) {
      // A file whose copy cannot be made goes as it is (minus its location, by the caller).
      if (!job.encode) return { ok: true, ...original, metrics: { ...metrics, ...original }, jpeg: null };
      throw new Error('the photo could not be encoded');
    }
    const bytes = addJpegComments(new Uint8Array(await encoded.arrayBuffer()), job.markers);
    return { ok: true, ...upload, metrics, jpeg: new Blob([bytes as BlobPart], { type: 'image/jpeg' }) };
  } finally {
    bitmap.close();
  }
}
