import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { jpegSegments } from '@/checks/image/image-structure';
import { MAX_IMAGE_METADATA_BYTES } from '@/checks/image/node/image-metadata';
import {
  ALTERATION_TILE,
  SHARPNESS_CONTRAST_MIN,
  editorNamed,
  type AlterationMap,
} from '@/checks/document/alteration';

/** Largest photo whose pixels are looked at whole (its luma at full size, 4 bytes a pixel). */
export const ALTERATION_MAX_PIXELS = 40_000_000;

/**
 * The metadata text a JPEG's segments before its first scan carry (EXIF, XMP, comments). APP13
 * (0xED) is left out: IPTC's resource block is signed "Photoshop 3.0" by any tool that writes it.
 */
function jpegMetadataText(bytes: Uint8Array): string {
  const { segments } = jpegSegments(bytes);
  return segments
    .filter((s) => (s.marker >= 0xe1 && s.marker <= 0xef && s.marker !== 0xed) || s.marker === 0xfe)
    .map((s) => Buffer.from(bytes.subarray(s.payloadStart, s.end)).toString('latin1'))
    .join('\n');
}

/** The first bytes of a file: a JPEG's segments before its scan are at most this long (image-metadata.ts). */
async function fileHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_IMAGE_METADATA_BYTES + 512 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * What the pixels and the file show about alteration: the noise of each tile (ALTERATION_TILE px
 * of the photo as stored, EXIF orientation not applied), as the mean absolute Laplacian of the
 * luma in its flattest 8×8 block (a camera's or a scanner's grain there; none in a region drawn or
 * pasted from a cleaner source), and the editing software the metadata names. At full size: a
 * shrink would average the grain away. Null when the photo is larger than ALTERATION_MAX_PIXELS.
 */
export async function alterationMap(path: string): Promise<AlterationMap | null> {
  const head = await fileHead(path);
  const jpeg = head[0] === 0xff && head[1] === 0xd8;
  const image = sharp(path, { limitInputPixels: ALTERATION_MAX_PIXELS, failOn: 'truncated' });
  const meta = await image.metadata();
  if ((meta.width ?? 0) * (meta.height ?? 0) > ALTERATION_MAX_PIXELS) return null;
  const metadataText = jpeg
    ? jpegMetadataText(head)
    : [
        ...(meta.comments ?? []).map((c) => `${c.keyword} ${c.text}`),
        meta.exif?.toString('latin1') ?? '',
        meta.xmp?.toString('latin1') ?? '',
      ].join('\n');
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const luma = new Float32Array(width * height);
  for (let i = 0, p = 0; i < luma.length; i++, p += channels) {
    luma[i] = channels >= 3 ? 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]! : data[p]!;
  }
  const cols = Math.ceil(width / ALTERATION_TILE);
  const rows = Math.ceil(height / ALTERATION_TILE);
  const noise = new Float32Array(cols * rows).fill(Number.POSITIVE_INFINITY);
  const blockCols = Math.floor(width / 8);
  const blockRows = Math.floor(height / 8);
  const blockNoise = new Float32Array(blockCols * blockRows);
  const blockSharpness = new Float32Array(blockCols * blockRows).fill(Number.NaN);
  for (let by = 0; by + 8 <= height; by += 8) {
    for (let bx = 0; bx + 8 <= width; bx += 8) {
      let sum = 0;
      let low = 255;
      let high = 0;
      let step = 0;
      for (let y = by; y < by + 8; y++) {
        for (let x = bx; x < bx + 8; x++) {
          const i = y * width + x;
          const v = luma[i]!;
          if (v < low) low = v;
          if (v > high) high = v;
          if (x + 1 < bx + 8) step = Math.max(step, Math.abs(luma[i + 1]! - v));
          if (y + 1 < by + 8) step = Math.max(step, Math.abs(luma[i + width]! - v));
          if (x > bx && x < bx + 7 && y > by && y < by + 7) {
            sum += Math.abs(4 * v - luma[i - 1]! - luma[i + 1]! - luma[i - width]! - luma[i + width]!);
          }
        }
      }
      const t = Math.floor(by / ALTERATION_TILE) * cols + Math.floor(bx / ALTERATION_TILE);
      noise[t] = Math.min(noise[t]!, sum / 36);
      const b = (by / 8) * blockCols + bx / 8;
      blockNoise[b] = sum / 36;
      if (high - low >= SHARPNESS_CONTRAST_MIN) blockSharpness[b] = step / (high - low);
    }
  }
  for (let t = 0; t < noise.length; t++) if (!Number.isFinite(noise[t]!)) noise[t] = Number.NaN;
  return {
    width,
    height,
    orientation: meta.orientation ?? 1,
    cols,
    rows,
    editor: editorNamed(metadataText),
    noise,
    blockCols,
    blockRows,
    blockNoise,
    blockSharpness,
  };
}
