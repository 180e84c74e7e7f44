// The MRZ section of the accuracy report: every document of a labelled folder (../shared/eval
// laid out) read by the service's MRZ reader, as it is and turned by a few degrees (made here
// with sharp, as a hand-held photo would be), judged per document:
// - read exactly: every check digit holds, and the names are names (no filler read as letters);
// - read with wrong fields: a zone came out, but a check digit fails or a name holds filler
//   misread as letters (`K`, `L`, … in a run of `<`);
// - not found: no zone at all.
// A specimen whose printed zone fails its own check digits (MISPRINTED_ZONES, each with its
// evidence) is judged by the printed text instead: read exactly when the reader returns what is
// printed and the product refuses it (valid false); a zone reported valid there is a document
// number or date nobody printed. The report names these exceptions.
// Documents without a zone and face photos count the zones "found" where there is none. The
// reader's time is that of readMrz on the file (decode, bands, glyph reader, OCR, parse), after
// one untimed reading.
// Documents of at least 600×600 px (what the service accepts) are counted apart from smaller scans.
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MrzRead } from '@/checks/mrz/document-reading';
import { closeMrzReader, readMrz, warmMrzReader } from '@/checks/mrz/node/mrz';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { percentile } from './percentile';

/** Turns made of each large document (degrees, clockwise positive), as photos held askew are. */
export const MRZ_TILTS = [-10, -6, 7];
/** The service's minimum photo size. */
const MIN_SIDE = 600;

type Outcome = 'exact' | 'wrong' | 'notFound';

/** A public specimen whose printed zone fails its own check digits, as printed and with the evidence. */
export interface MisprintedZone {
  /** The eval entry's source (repository and path), or its file name, that names the specimen. */
  source: string;
  /** The zone as printed, character by character (in the MRZ alphabet). */
  printed: string[];
  /** What fails, and who else says so. */
  evidence: string;
}

/**
 * Specimens of ../shared/eval whose printed zones fail their own check digits: each zone was read
 * off the image character by character (glyphs counted per line) and its check digits computed.
 * PassportEye names each test image by the score its own reader is expected to reach
 * (`passporteye/mrz/scripts.py`, `evaluate_mrz` compares against the file name's prefix; a TD1
 * scores 100 × (10 × check digits held + 3 line lengths + 1 code letter + 1) ÷ 45, so 100 with
 * every check digit and 77 with one failing).
 */
export const MISPRINTED_ZONES: MisprintedZone[] = [
  {
    source: 'konstantint/PassportEye:passporteye/mrz/testdata/77_card-cmw.png',
    printed: [
      'IDCMW<512849702<<<<<<<<<<<<<<<',
      '6104128M1402209CMW<<<<<<<<<<<1',
      'PUBLIC<<JON<<<<<<<<<<<<<<<<<<<',
    ],
    evidence:
      'composite check digit printed 1, computes 0 (number, birth and expiry digits hold); PassportEye expects 77 of it, three of four check digits',
  },
  {
    source: 'konstantint/PassportEye:passporteye/mrz/testdata/33_id-usa.jpg',
    printed: [
      'C1USA0223456791EAC9730051220<<',
      '4910040M9411014CAN<<<<<<<<<<<0',
      'CRITTENDEN<<LEE<W<<<<<<<<<<<<<',
    ],
    evidence:
      'number check digit printed 1, computes 8; composite printed 0, computes 4; document code C1 (a digit where a letter stands); PassportEye expects 33 of it',
  },
  {
    source: 'konstantint/PassportEye:passporteye/mrz/testdata/0_id-esp.png',
    printed: [
      'IDESPAAA1000014<00000023T<<<<<',
      '7212018F1101236ESP<<<<<<<<<<<8',
      'ESPANOLA<ESPANOLA<CARMEN<<<<<<',
    ],
    evidence:
      'number check digit printed 4, computes 8; birth date printed 8, computes 1; composite printed 8, computes 1; the name line prints Ñ (here N) and no << between surname and names; PassportEye expects 0 of it',
  },
];

/** The misprinted specimen an eval entry is, by its source's repository and path. */
export function misprintedZone(entry: Pick<EvalEntry, 'source'>): MisprintedZone | undefined {
  const source = entry.source as { repo?: unknown; path?: unknown } | undefined;
  if (typeof source?.repo !== 'string' || typeof source.path !== 'string') return undefined;
  return MISPRINTED_ZONES.find((z) => z.source === `${source.repo}:${source.path}`);
}

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

export function outcomeOf(read: MrzRead, misprinted?: MisprintedZone): Outcome {
  if (!read.found) return 'notFound';
  // Read as printed, and refused: what a reader should do with a zone whose digits fail.
  if (misprinted)
    return !read.valid && read.lines.join('/') === misprinted.printed.join('/') ? 'exact' : 'wrong';
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
  cpuMs: number;
  text: string;
  misprinted: boolean;
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
  const read = async (entry: EvalEntry, variant: string, large: boolean, source: string) => {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await readMrz(source);
    const ms = performance.now() - start;
    // CPU of every thread of this process (the OCR's worker threads too): less swayed by other
    // processes on the machine than the wall time.
    const cpu = process.cpuUsage(cpuStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const text = result.found ? result.lines.join(' / ') : '';
    const misprinted = misprintedZone(entry);
    rows.push({
      file: entry.file,
      variant,
      large,
      outcome: outcomeOf(result, misprinted),
      ms,
      cpuMs,
      text,
      misprinted: misprinted !== undefined,
    });
  };
  try {
    for (const entry of documents) {
      const { width = 0, height = 0 } = await sharp(entry.path).metadata();
      const large = Math.min(width, height) >= MIN_SIDE;
      await read(entry, 'as is', large, entry.path);
      if (!large) continue;
      for (const degrees of MRZ_TILTS) {
        // A grey table around the turned page, as a photo of a document lying on one.
        const turned = path.join(dir, `${path.basename(entry.file)}.${degrees}.jpg`);
        await sharp(entry.path)
          .rotate(degrees, { background: '#5a5a5a' })
          .jpeg({ quality: 90 })
          .toFile(turned);
        await read(entry, `turned ${degrees}°`, true, turned);
      }
    }
    let falseZones = 0;
    for (const entry of noMrz) if ((await readMrz(entry.path)).found) falseZones++;
    let faceZones = 0;
    for (const entry of faces) if ((await readMrz(entry.path)).found) faceZones++;
    const times = rows.map((r) => r.ms);
    const cpuTimes = rows.map((r) => r.cpuMs);
    const groups: [string, Row[]][] = [
      ['≥ 600 px, as is', rows.filter((r) => r.large && r.variant === 'as is')],
      ['≥ 600 px, turned', rows.filter((r) => r.large && r.variant !== 'as is')],
      ['≥ 600 px, all', rows.filter((r) => r.large)],
      ['< 600 px, as is', rows.filter((r) => !r.large)],
    ];
    const lines = groups.map(([name, group]) => `${name.padEnd(18)} ${summary(group).line}`);
    // The same document read otherwise once turned: a field misread (a check digit can pass by chance).
    const asIs = new Map(rows.filter((r) => r.variant === 'as is').map((r) => [r.file, r.text]));
    const turnedRows = rows.filter((r) => r.variant !== 'as is');
    const differing = turnedRows.filter((r) => r.text !== asIs.get(r.file));
    const exceptions = documents.filter((e) => misprintedZone(e));
    lines.push(
      `turned readings that differ from the document's reading as is: ${differing.length} of ${turnedRows.length}`,
      ...exceptions.map((e) => {
        const judged = rows.filter((r) => r.file === e.file);
        const asPrinted = judged.filter((r) => r.outcome === 'exact').length;
        return `labelled exception, printed check digits fail (judged as printed, must be refused): ${path.basename(e.file)}: read as printed and refused ${asPrinted} of ${judged.length}; ${misprintedZone(e)?.evidence}`;
      }),
      `documents without a zone: ${noMrz.length}, a zone "found" on ${falseZones}; face photos: ${faces.length}, a zone "found" on ${faceZones}`,
      `reader time (decode, bands, glyphs, OCR, parse): p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms over ${times.length} readings`,
      `reader CPU (all its threads): p50 ${percentile(cpuTimes, 50).toFixed(0)} ms, p99 ${percentile(cpuTimes, 99).toFixed(0)} ms; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end`,
    );
    if (verbose)
      for (const r of rows)
        lines.push(
          `  ${r.outcome.padEnd(8)} ${r.large ? '   ' : '<6 '}${r.misprinted ? '*' : ' '}${path.basename(r.file).padEnd(44)} ${r.variant.padEnd(12)} ${r.ms.toFixed(0).padStart(5)} ms ${r.cpuMs.toFixed(0).padStart(5)} ms CPU  ${r.text}`,
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
        turnedDiffering: differing.length,
        misprintedExceptions: exceptions.map((e) => e.file),
        noMrzFalseZones: falseZones,
        faceFalseZones: faceZones,
        readerMsP50: percentile(times, 50),
        readerMsP99: percentile(times, 99),
        readerCpuMsP50: percentile(cpuTimes, 50),
        readerCpuMsP99: percentile(cpuTimes, 99),
      },
    };
  } finally {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  }
}
