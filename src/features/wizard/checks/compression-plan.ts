import { METRICS_DECODE_LONG_SIDE } from '@/checks/image/image-metrics';
import { MIN_IMAGE_SIDE } from '@/shared/limits';

/** Files above either budget are re-encoded before upload; smaller ones go as they are. */
export const COMPRESS_ABOVE_BYTES = 3 * 1024 * 1024;
export const COMPRESS_ABOVE_PIXELS = 8_000_000;
/**
 * Long side of a compressed photo. The service asks for 600×600 at least and reads its checks at
 * about 1000 px (the MRZ at 1000, faces at 1024, metrics at 1024), so 2048 keeps twice what it reads
 * and a card filling 60 % of the frame still at ~360 dpi. It was 2560: in bench:client's 12 MP check
 * the encode of 2048 against 2560 took the whole check from 380 to 296 ms (decode baseline 81–85 ms,
 * same run, load 1.5), the file from 1.8 to 1.3 MB.
 */
export const TARGET_LONG_SIDE = 2048;
/**
 * One JPEG encode at this quality, no second pass: a 2048×1536 photo comes out at about 1–1.5 MB, far under
 * the service's 50 MB, and a second encode would cost as much as the first.
 */
export const COMPRESS_QUALITY = 0.9;
/** A camera frame is encoded once, from the video's pixels. */
export const SNAPSHOT_QUALITY = 0.92;

export interface Size {
  width: number;
  height: number;
}

/**
 * Whether and how far to shrink an image of the given (oriented) size: the exact output size, or
 * null to keep the file. The short side never goes under MIN_IMAGE_SIDE, whatever the aspect
 * ratio, so compression cannot turn a valid photo into a `tooSmall` one; nothing is enlarged.
 */
export function compressionPlan(image: Size & { bytes: number }): Size | null {
  const { width, height, bytes } = image;
  if (bytes <= COMPRESS_ABOVE_BYTES && width * height <= COMPRESS_ABOVE_PIXELS) return null;
  return scaledTo(width, height, TARGET_LONG_SIDE, MIN_IMAGE_SIDE);
}

/** The size the metrics are measured at: long side METRICS_DECODE_LONG_SIDE at most. */
export const metricsDecodeSize = (size: Size): Size =>
  scaledTo(size.width, size.height, METRICS_DECODE_LONG_SIDE, 1);

/**
 * Scales so the long side is `long` (never up), rounding the short side but keeping it at least
 * `minShort` (or the original's, if smaller): a very long image keeps more than `long`.
 */
function scaledTo(width: number, height: number, long: number, minShort: number): Size {
  const longSide = Math.max(width, height);
  const shortSide = Math.min(width, height);
  let outLong = Math.min(longSide, long);
  let outShort = Math.round((shortSide * outLong) / longSide);
  const floor = Math.min(shortSide, minShort);
  if (outShort < floor) {
    outShort = floor;
    outLong = Math.min(longSide, Math.round((longSide * floor) / shortSide));
  }
  return width >= height ? { width: outLong, height: outShort } : { width: outShort, height: outLong };
}
