import { imageMetrics, type ImageMetrics } from '@/checks/image/image-metrics';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import { compressionPlan, metricsDecodeSize, type Size } from './compression-plan';
import { addJpegSegments, jpegHeadWithoutExif } from '@/checks/image/browser/image-bytes';

/** What to make of one photo: a file (decoded here) or a camera frame (already pixels). */
export interface PhotoJob {
  /** A file's oriented size and EXIF orientation from its header, when it could be read without decoding. */
  size?: (Size & { orientation?: number }) | null;
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
      /** The size of what is uploaded as displayed: the re-encoded copy's, or the original's. */
      width: number;
      height: number;
      metrics: ImageMetrics;
      /** The re-encoded copy (its orientation as a tag, no metadata but that and the markers), or null: keep the file. */
      jpeg: Blob | null;
    }
  | { ok: false; width: number; height: number };

type Canvas = OffscreenCanvas | HTMLCanvasElement;
type Context = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

const canvasOf = ({ width, height }: Size): Canvas =>
  typeof OffscreenCanvas === 'function'
    ? new OffscreenCanvas(width, height)
    : Object.assign(document.createElement('canvas'), { width, height });

function context2d(canvas: Canvas, readBack: boolean): Context {
  const context = canvas.getContext('2d', readBack ? { willReadFrequently: true } : {}) as Context | null;
  if (!context) throw new Error('no 2d context');
  return context;
}

/**
 * The transform that draws pixels stored as they are under EXIF orientation `turn` upright, for
 * an upright canvas of `width`×`height` (the stored image drawn at the swapped size for turns 5–8).
 */
function uprightTransform(
  turn: number,
  width: number,
  height: number,
): [number, number, number, number, number, number] {
  switch (turn) {
    case 2:
      return [-1, 0, 0, 1, width, 0];
    case 3:
      return [-1, 0, 0, -1, width, height];
    case 4:
      return [1, 0, 0, -1, 0, height];
    case 5:
      return [0, 1, 1, 0, 0, 0];
    case 6:
      return [0, 1, -1, 0, width, 0];
    case 7:
      return [0, -1, -1, 0, width, height];
    case 8:
      return [0, -1, 1, 0, 0, height];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/** Draws the bitmap (stored under orientation `turn`) upright, scaled to fill the canvas. */
function draw(canvas: Canvas, bitmap: ImageBitmap, readBack: boolean, turn = 1) {
  const context = context2d(canvas, readBack);
  const swap = turn >= 5;
  const width = swap ? canvas.height : canvas.width;
  const height = swap ? canvas.width : canvas.height;
  context.imageSmoothingQuality = smoothingFor(bitmap.width / width);
  context.setTransform(...uprightTransform(turn, canvas.width, canvas.height));
  context.drawImage(bitmap, 0, 0, width, height);
  return context;
}

const toJpeg = (canvas: Canvas, quality: number): Promise<Blob> =>
  'convertToBlob' in canvas
    ? canvas.convertToBlob({ type: 'image/jpeg', quality })
    : new Promise((resolve, reject) =>
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no JPEG'))), 'image/jpeg', quality),
      );

/**
 * Encodes pixels that carry no orientation of their own, at `size`, and gives the bitmap up.
 * Through a 'bitmaprenderer' canvas the encoder reads the decoded pixels themselves: in Chromium's
 * worker a 2048×1536 photo encoded in ~38 ms that way, against ~72 ms drawn upright on a 2D canvas
 * first (the turn of a sideways photo is a whole pass over its pixels). Chromium's encoder ignores
 * an orientation the bitmap was decoded with, hence pixels without one.
 */
async function encodeStored(bitmap: ImageBitmap, size: Size, quality: number): Promise<Blob> {
  const exact =
    bitmap.width === size.width && bitmap.height === size.height
      ? bitmap
      : await createImageBitmap(bitmap, {
          resizeWidth: size.width,
          resizeHeight: size.height,
          resizeQuality: smoothingFor(bitmap.width / size.width),
        });
  const canvas = canvasOf(size);
  const renderer = canvas.getContext('bitmaprenderer') as ImageBitmapRenderingContext | null;
  if (renderer) renderer.transferFromImageBitmap(exact);
  else {
    draw(canvas, exact, false);
    if (exact !== bitmap) exact.close();
  }
  return toJpeg(canvas, quality);
}

/** Encodes a bitmap decoded upright by the browser (whatever its file's EXIF) at `size`, drawn. */
function encodeDrawn(bitmap: ImageBitmap, size: Size, quality: number): Promise<Blob> {
  const canvas = canvasOf(size);
  draw(canvas, bitmap, false);
  return toJpeg(canvas, quality);
}

/**
 * The file minus its EXIF segments (a JPEG whose head reaches its scan), or null: decoded from it,
 * the pixels come as stored, so that the turn is left to the copy's orientation tag.
 */
async function storedPixelsFile(file: Blob): Promise<Blob | null> {
  const head = new Uint8Array(await file.slice(0, 256 * 1024).arrayBuffer());
  const stripped = jpegHeadWithoutExif(head);
  if (!stripped) return null;
  return new Blob([stripped.head as BlobPart, file.slice(stripped.restStart)], { type: 'image/jpeg' });
}

/**
 * Smoothing for a downscale by `factor`: bilinear ('low') samples every source pixel up to 2×;
 * beyond, mipmaps ('medium') keep the fine print from aliasing. 'high' costs ~100 ms more on a
 * 12 MP photo in Chromium for no difference the service sees.
 */
const smoothingFor = (factor: number): ImageSmoothingQuality => (factor <= 2 ? 'low' : 'medium');

/**
 * One decode per photo: the file is decoded once and, when it is to be shrunk and its header gave
 * its size, straight at the planned size (createImageBitmap's resizeWidth/resizeHeight, done by
 * the browser's decoder; where that is not supported the full bitmap is scaled when drawn). A JPEG
 * to shrink is decoded as its pixels are stored (its EXIF left out) and re-encoded so, with its
 * orientation written as the copy's only EXIF tag: turning a sideways 12 MP photo upright in the
 * browser is a pass over every pixel the service (which honours the tag, as it does for every file
 * sent as it is) does on a 1000-pixel decode instead. From those pixels come the service's own
 * metrics (@/checks/image/image-metrics, drawn upright at the size the service decodes at for them)
 * and, when the plan says so or for a camera frame, one JPEG encode. Runs in photo-worker.ts, or
 * on the page where OffscreenCanvas is missing.
 *
 * Measured in Chromium's worker on a 12 MP photo (4000×3000 to 2048×1536, 2-core machine): the
 * decode at the planned size costs ~23 ms more than a plain decode and saves a draw; 'medium' and
 * 'high' resize qualities cost +140 and +200 ms; WebCodecs' ImageDecoder at a reduced size decoded
 * no faster.
 */
export async function runPhotoJob(source: Blob | ImageBitmap, job: PhotoJob): Promise<PhotoOutcome> {
  const header = source instanceof Blob ? (job.size ?? null) : null;
  const planned = header && compressionPlan({ ...header, bytes: job.bytes });
  const stored = source instanceof Blob && planned ? await storedPixelsFile(source) : null;
  // The turn from the stored pixels to upright (1 when the browser applied it, or there is none).
  const turn = stored ? (header?.orientation ?? 1) : 1;
  const swap = turn >= 5;
  const bitmap =
    source instanceof Blob
      ? await createImageBitmap(stored ?? source, {
          imageOrientation: 'from-image',
          ...(header && planned
            ? {
                resizeWidth: swap ? planned.height : planned.width,
                resizeHeight: swap ? planned.width : planned.height,
                resizeQuality: smoothingFor(header.width / planned.width),
              }
            : {}),
        })
      : source;
  // Upright sizes from here on.
  const original = header && planned ? header : { width: bitmap.width, height: bitmap.height };
  const plan = planned ?? compressionPlan({ ...original, bytes: job.bytes });
  try {
    // A camera frame under the minimum is still encoded: its metrics say tooSmall, as for a file.
    if (!job.encode && (original.width < MIN_IMAGE_SIDE || original.height < MIN_IMAGE_SIDE))
      return { ok: false, ...original };
    const upload = plan ?? original;
    const encode = plan !== null || job.encode;
    // The metrics' pixels are taken first: the encode below may consume the bitmap.
    const small = metricsDecodeSize(upload);
    const pixels = draw(canvasOf(small), bitmap, true, turn).getImageData(0, 0, small.width, small.height);
    // A camera frame's pixels, or a file's decoded without its EXIF, carry no orientation.
    const asStored = stored !== null || !(source instanceof Blob);
    const storedSize = swap ? { width: upload.height, height: upload.width } : upload;
    const jpeg = !encode
      ? null
      : (asStored
          ? encodeStored(bitmap, storedSize, job.quality)
          : encodeDrawn(bitmap, upload, job.quality)
        ).catch(() => null);
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
    const bytes = addJpegSegments(new Uint8Array(await encoded.arrayBuffer()), {
      comments: job.markers,
      orientation: turn,
    });
    return { ok: true, ...upload, metrics, jpeg: new Blob([bytes as BlobPart], { type: 'image/jpeg' }) };
  } finally {
    bitmap.close();
  }
}
