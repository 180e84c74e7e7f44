import sharp, { type Metadata } from 'sharp';
import { imageMetrics, METRICS_DECODE_LONG_SIDE, type ImageMetrics } from '@/shared/image-metrics';
import { readPdf417Pixels, type Pdf417Read } from './barcode';
import { imageMetadataBytes, MAX_IMAGE_METADATA_BYTES } from './image-metadata';
import { parseMarkers, type Markers } from './marker';

/** Images with more pixels than this are refused before any decoding (memory bound). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/**
 * Larger images are first shrunk by sharp so the long side is this many pixels; the shared metrics
 * then box-filter to 512. Bounds memory at ~12 MB of raw pixels whatever the upload.
 */
export const DECODE_LONG_SIDE = 2048;

export type ImageHeader =
  { ok: true; width: number; height: number; markers: Markers } | { ok: false; reason: string };

/** Header only: dimensions and PNG text chunks. Never decodes pixels. */
export async function readImageHeader(path: string): Promise<ImageHeader> {
  // Before sharp, which would turn every text chunk and segment into strings, whatever their size.
  if ((await imageMetadataBytes(path).catch(() => 0)) > MAX_IMAGE_METADATA_BYTES) {
    return {
      ok: false,
      reason: `the image carries more than ${MAX_IMAGE_METADATA_BYTES / 1024 / 1024} MB of metadata`,
    };
  }
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: false, failOn: 'truncated' }).metadata();
  } catch {
    return { ok: false, reason: 'the image cannot be decoded' };
  }
  const { width, height } = meta;
  if (!width || !height) return { ok: false, reason: 'the image has no dimensions' };
  if (width * height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      reason: `the image is ${width}×${height}, over the ${MAX_IMAGE_PIXELS / 1e6} MP limit`,
    };
  }
  const comments = (meta.comments ?? []).map((c) => `${c.keyword}\x00${c.text}`);
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    ok: true,
    width: swap ? height : width,
    height: swap ? width : height,
    markers: parseMarkers(comments),
  };
}

/**
 * Long side of the one decode when no barcode is read: the metrics box-filter to 512 anyway, and a
 * JPEG this much smaller than the photo is decoded at 1/2, 1/4 or 1/8 scale by libjpeg itself
 * (shrink-on-load), at a fraction of a full decode's cost.
 */
export const METRICS_LONG_SIDE = METRICS_DECODE_LONG_SIDE;

export interface ImageJob {
  path: string;
  /** Read a PDF417 symbol too (from the same decode, at DECODE_LONG_SIDE). */
  pdf417?: boolean;
}
export type InspectedImage =
  { ok: true; metrics: ImageMetrics; pdf417?: Pdf417Read } | { ok: false; reason: string };

/**
 * Decodes the image once (EXIF-rotated, bounded: shrunk on load to METRICS_LONG_SIDE, or to
 * DECODE_LONG_SIDE when a barcode is read), then feeds every metric and the barcode reader from
 * those pixels. Run in a worker thread (image-pool.ts).
 */
export async function inspectImage(path: string, job: Omit<ImageJob, 'path'> = {}): Promise<InspectedImage> {
  const longSide = job.pdf417 ? DECODE_LONG_SIDE : METRICS_LONG_SIDE;
  let pixels: { data: Buffer; width: number; height: number; channels: number };
  try {
    const { data, info } = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    pixels = { data, width: info.width, height: info.height, channels: info.channels };
  } catch {
    return { ok: false, reason: 'the image pixels cannot be decoded' };
  }
  const metrics = imageMetrics(pixels);
  if (!job.pdf417) return { ok: true, metrics };
  const pdf417 = await readPdf417Pixels(pixels).catch((): Pdf417Read => ({ found: false }));
  return { ok: true, metrics, pdf417 };
}
