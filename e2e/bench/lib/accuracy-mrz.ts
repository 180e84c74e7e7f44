// The MRZ section of the accuracy report: every document of a labelled folder (../shared/eval
// laid out) read by the service's MRZ reader, as it is and turned by a few degrees (made here
// with sharp, as a hand-held photo would be), judged per document:
// - read exactly: every check digit holds, and the names are names (no filler read as letters);
// - read with wrong fields: a zone came out, but a check digit fails or a name holds filler
//   misread as letters (`K`, `L`, … in a run of `<`);
// - not found: no zone at all.
// Documents without a zone and face photos count the zones "found" where there is none. The
// reader's time is that of readMrz on the file (decode, bands, glyph reader, OCR, parse), after
// one untimed reading.
// Documents of at least 600×600 px (what the service accepts) are counted apart from smaller scans.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MrzRead } from '@/shared/document-reading';
import { closeMrzReader, readMrz, warmMrzReader } from '@/service/checks/mrz';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { percentile } from './percentile';

/** Turns made of each large document (degrees, clockwise positive), as photos held askew are. */
export const MRZ_TILTS = [-10, -6, 7];
/** The service's minimum photo size. */
const MIN_SIDE = 600;

type Outcome = 'exact' | 'wrong' | 'notFound';

/**
 * Filler misread as letters in a name: a part made of one letter of the shapes the OCR gives `<`
 * (K, L, C, E, I; a run like `K<K<K` or `KKK`), three alike or four of K and L in a row inside a
 * part (`OLIVIAKLLLL`), or several one-letter parts in a row at the end.
 */
export function garbledName(name: string): boolean {
  const parts = name.split(' ').filter(Boolean);
  if (parts.some((p) => /^([KLCEI])\1+$/.test(p) || /([KLC])\1\1|[KL]{4}/.test(p))) return true;
  let singles = 0;
  for (let i = parts.length - 1; i >= 0 && parts[i].length === 1; i--) singles++;
  return singles >= 2 || /[^A-Z ]/.test(name);
}

export function outcomeOf(read: MrzRead): Outcome {
  if (!read.found) return 'notFound';
  if (!read.valid) return 'wrong';
  const { firstName = '', lastName = '' } = read.person;
  return garbledName(firstName) || garbledName(lastName) || !lastName ? 'wrong' : 'exact';
}

interface Row {
  file: string;
  variant: string;
  large: boolean;
  outcome: Outcome;
  ms: number;
  text: string;
}

const summary = (rows: Row[]) => {
  const n = rows.length;
  const count = (o: Outcome) => rows.filter((r) => r.outcome === o).length;
  const pct = (k: number) => (n ? `${((100 * k) / n).toFixed(0)} %` : '—');
  return {
    n,
    exact: count('exact'),
    wrong: count('wrong'),
    notFound: count('notFound'),
    line: `${String(n).padStart(3)} | exact ${String(count('exact')).padStart(3)} (${pct(count('exact'))}) | wrong fields ${String(count('wrong')).padStart(3)} | not found ${String(count('notFound')).padStart(3)}`,
  };
};

/** Runs the section over `set`'s documents; `verbose` adds a line per reading. */
export async function mrzAccuracy(set: EvalSet, { verbose = false } = {}): Promise<AccuracySection> {
  const documents = set.entries.filter((e: EvalEntry) => e.kind === 'document' && e.expect === 'mrz');
  const noMrz = set.entries.filter((e: EvalEntry) => e.kind === 'document' && e.expect === 'noMrz');
  const faces = set.entries.filter((e: EvalEntry) => e.kind === 'face');
  const dir = await mkdtemp(path.join(tmpdir(), 'accuracy-mrz-'));
  await warmMrzReader();
  // One reading untimed: the OCR's first recognition is several times slower than the next ones.
  if (documents[0]) await readMrz(documents[0].path);
  const rows: Row[] = [];
  const read = async (file: string, variant: string, large: boolean, source: string) => {
    const start = performance.now();
    const result = await readMrz(source);
    const ms = performance.now() - start;
    const text = result.found ? result.lines.join(' / ') : '';
    rows.push({ file, variant, large, outcome: outcomeOf(result), ms, text });
  };
  try {
    for (const entry of documents) {
      const { width = 0, height = 0 } = await sharp(entry.path).metadata();
      const large = Math.min(width, height) >= MIN_SIDE;
      await read(entry.file, 'as is', large, entry.path);
      if (!large) continue;
      for (const degrees of MRZ_TILTS) {
        // A grey table around the turned page, as a photo of a document lying on one.
        const turned = path.join(dir, `${path.basename(entry.file)}.${degrees}.jpg`);
        await sharp(entry.path)
          .rotate(degrees, { background: '#5a5a5a' })
          .jpeg({ quality: 90 })
          .toFile(turned);
        await read(entry.file, `turned ${degrees}°`, true, turned);
      }
    }
    let falseZones = 0;
    for (const entry of noMrz) if ((await readMrz(entry.path)).found) falseZones++;
    let faceZones = 0;
    for (const entry of faces) if ((await readMrz(entry.path)).found) faceZones++;
    const times = rows.map((r) => r.ms);
    const groups: [string, Row[]][] = [
      ['≥ 600 px, as is', rows.filter((r) => r.large && r.variant === 'as is')],
      ['≥ 600 px, turned', rows.filter((r) => r.large && r.variant !== 'as is')],
      ['≥ 600 px, all', rows.filter((r) => r.large)],
      ['< 600 px, as is', rows.filter((r) => !r.large)],
    ];
    const lines = groups.map(([name, group]) => `${name.padEnd(18)} ${summary(group).line}`);
    lines.push(
      `documents without a zone: ${noMrz.length}, a zone "found" on ${falseZones}; face photos: ${faces.length}, a zone "found" on ${faceZones}`,
      `reader time (decode, bands, glyphs, OCR, parse): p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms over ${times.length} readings`,
    );
    if (verbose)
      for (const r of rows)
        lines.push(
          `  ${r.outcome.padEnd(8)} ${r.large ? '   ' : '<6 '} ${path.basename(r.file).padEnd(44)} ${r.variant.padEnd(12)} ${r.ms.toFixed(0).padStart(5)} ms  ${r.text}`,
        );
    const figure = (group: Row[]) => {
      const { n, exact, wrong, notFound } = summary(group);
      return { n, exact, wrong, notFound, exactShare: n ? exact / n : null };
    };
    return {
      name: 'MRZ',
      lines,
      figures: {
        large: figure(groups[0][1]),
        largeTurned: figure(groups[1][1]),
        largeAll: figure(groups[2][1]),
        small: figure(groups[3][1]),
        noMrzFalseZones: falseZones,
        faceFalseZones: faceZones,
        readerMsP50: percentile(times, 50),
        readerMsP99: percentile(times, 99),
      },
    };
  } finally {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  }
}
