import sharp, { type Metadata } from 'sharp';
import { imageMetrics, type ImageMetrics } from '@/shared/image-metrics';
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

export type DecodedImage = { ok: true; metrics: ImageMetrics } | { ok: false; reason: string };

/** Decodes the pixels (bounded, EXIF-rotated) and measures them with the shared metrics. */
export async function measureImage(path: string): Promise<DecodedImage> {
  try {
    const { data, info } = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: DECODE_LONG_SIDE, height: DECODE_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const metrics = imageMetrics({ data, width: info.width, height: info.height, channels: info.channels });
    return { ok: true, metrics };
  } catch {
    return { ok: false, reason: 'the image pixels cannot be decoded' };
  }
}

/** A bounded PNG of the image for the barcode reader (zxing decodes it itself). */
export async function barcodeImage(path: string, longSide = 2000): Promise<Uint8Array | null> {
  try {
    return await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    return null;
  }
}
