// An eval photo as a send-input would carry it: as is, or, under the spec's 600 px (which the
// service refuses by size before any other rule), enlarged to that minimum (short side 600,
// Lanczos) into a temporary file, so that the rules after the size rule can be measured on it.
import path from 'node:path';
import sharp from 'sharp';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import type { EvalEntry } from './eval-set';

/** The photo as the check sees it: as is, or enlarged to the spec's minimum into `dir`. */
export async function asSent(entry: EvalEntry, dir: string) {
  const meta = await sharp(entry.path).rotate().metadata();
  const [width, height] = meta.autoOrient
    ? [meta.autoOrient.width, meta.autoOrient.height]
    : [meta.width, meta.height];
  if (Math.min(width ?? 0, height ?? 0) >= MIN_IMAGE_SIDE) return { file: entry.path, enlarged: false };
  const file = path.join(
    dir,
    `${path.basename(entry.file).replace(/\.\w+$/, '')}-${Math.random().toString(36).slice(2)}.jpg`,
  );
  const scale = MIN_IMAGE_SIDE / Math.min(width ?? 1, height ?? 1);
  await sharp(entry.path)
    .rotate()
    .resize({
      width: Math.ceil((width ?? 1) * scale),
      height: Math.ceil((height ?? 1) * scale),
      kernel: 'lanczos3',
    })
    .jpeg({ quality: 92 })
    .toFile(file);
  return { file, enlarged: true };
}
