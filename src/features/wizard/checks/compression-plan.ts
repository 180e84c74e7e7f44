import { MIN_IMAGE_SIDE } from '@/shared/limits';

/** Files above either budget are re-encoded before upload; smaller ones go as they are. */
export const COMPRESS_ABOVE_BYTES = 3 * 1024 * 1024;
export const COMPRESS_ABOVE_PIXELS = 8_000_000;
/** Long side of a compressed photo: enough for the service to read a document's small print. */
export const TARGET_LONG_SIDE = 2560;
export const COMPRESS_QUALITY = 0.9;
/** Size the compressor aims at; it lowers quality only (never the resolution) to get there. */
export const TARGET_MAX_MB = 2;

export interface CompressionPlan {
  /** browser-image-compression's `maxWidthOrHeight`: the long side of the output. */
  maxWidthOrHeight: number;
  /** The output size this yields (the compressor scales by the long side, truncating). */
  width: number;
  height: number;
}

/**
 * Whether and how far to shrink an image of the given (oriented) size. The short side never goes
 * under MIN_IMAGE_SIDE, whatever the aspect ratio, so compression cannot turn a valid photo into a
 * `tooSmall` one; the image is never enlarged.
 */
export function compressionPlan(image: {
  width: number;
  height: number;
  bytes: number;
}): CompressionPlan | null {
  const { width, height, bytes } = image;
  if (bytes <= COMPRESS_ABOVE_BYTES && width * height <= COMPRESS_ABOVE_PIXELS) return null;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  // +1: the compressor's canvas truncates the scaled short side.
  const keepShort = Math.ceil((MIN_IMAGE_SIDE * long) / short) + 1;
  const maxWidthOrHeight = Math.min(long, Math.max(TARGET_LONG_SIDE, keepShort));
  const scale = maxWidthOrHeight / long;
  return {
    maxWidthOrHeight,
    width: width >= height ? maxWidthOrHeight : Math.trunc(width * scale),
    height: width >= height ? Math.trunc(height * scale) : maxWidthOrHeight,
  };
}
