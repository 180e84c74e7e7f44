// The MRZ section of `npm run bench:accuracy` (a first cut): every `document` entry through the
// MRZ reading a send-input runs (the bands from the one decode in the image pool, then the glyph
// reader or the OCR, then the check digits), split by whether the image meets the 600×600 minimum
// (smaller ones would be refused as smallImageSize first; they are read anyway and reported apart).
import { readImageHeader } from '@/service/checks/image';
import { inspectImageInPool } from '@/service/checks/image-pool';
import { closeMrzReader, readMrz, readMrzBands } from '@/service/checks/mrz';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import type { AccuracySection, EvalSet } from './eval-set';

type Outcome = 'read' | 'badMrz' | 'noMrz';

export async function mrzAccuracy(set: EvalSet): Promise<AccuracySection> {
  const groups = { large: new Map<string, Outcome[]>(), small: new Map<string, Outcome[]>() };
  try {
    for (const entry of set.entries.filter((e) => e.kind === 'document')) {
      const header = await readImageHeader(entry.path);
      const large = header.ok && header.width >= MIN_IMAGE_SIDE && header.height >= MIN_IMAGE_SIDE;
      const inspected = await inspectImageInPool({ path: entry.path, mrz: true });
      const mrz =
        inspected.ok && inspected.mrzBands
          ? await readMrzBands(inspected.mrzBands)
          : await readMrz(entry.path);
      const outcome: Outcome = !mrz.found ? 'noMrz' : mrz.valid ? 'read' : 'badMrz';
      const group = groups[large ? 'large' : 'small'];
      const expect = entry.expect ?? 'mrz';
      group.set(expect, [...(group.get(expect) ?? []), outcome]);
    }
  } finally {
    await closeMrzReader();
  }
  const lines: string[] = [];
  const figures: Record<string, Record<string, Record<Outcome, number>>> = {};
  for (const [size, group] of Object.entries(groups)) {
    const label =
      size === 'large'
        ? `≥ ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE}`
        : `under ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE}`;
    figures[size] = {};
    for (const [expect, outcomes] of group) {
      const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
      figures[size][expect] = { read: count('read'), badMrz: count('badMrz'), noMrz: count('noMrz') };
      lines.push(
        `${label}, expect ${expect}: ${outcomes.length} documents — read ${count('read')}, check digits fail ${count('badMrz')}, no MRZ found ${count('noMrz')}`,
      );
    }
  }
  return { name: 'mrz', lines, figures };
}
