// The printed fields (VIZ) section of the accuracy report: every document of a labelled folder
// (../shared/eval laid out) that carries a zone, its printed fields read by the service's reader
// (`@/checks/viz`: the finder's straightened document, the layout its shape names, the OCR of its
// crops) and compared with its own zone, read by the service's MRZ reader: the truth. Per
// document: the printed surname, document number and birth date, each equal to the zone's
// (names without accents or spacing, numbers with look-alikes as one, dates as dates) or not, and
// the code the printed-field rule would give this genuine document (each one a false refusal).
// Documents whose zone does not read valid have no truth and are listed apart, as are documents
// of at least 600×600 px (what the service accepts) and the smaller scans (enlarged to 600 px on
// their short side, as the service would refuse them before this check). The CPU is the process's
// (the OCR's worker thread included) over the reading of each document's fields, after a first
// untimed document.
import sharp from 'sharp';
import { layoutsFor } from '@/checks/document/field-layouts';
import { inspectImage } from '@/checks/image/node/image';
import { closeMrzReader, readMrz } from '@/checks/mrz/node/mrz';
import { agreement, type StatedFields } from '@/checks/viz/printed-fields';
import { closeVizReader } from '@/checks/viz/node/viz-ocr';
import { layoutCrops } from '@/checks/viz/node/viz-read';
import type { InputFacts } from '@/checks/inputs/node/types';
import { judgePrintedFields, printedLayout } from '@/service/checks/printed-fields';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { percentile } from './percentile';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MIN_SIDE = 600;
const KEYS = ['lastName', 'documentNumber', 'dateOfBirth'] as const;
/** Issuing states whose documents are read with the Spanish or Portuguese OCR data. */
const COUNTRY_OF: Record<string, string> = { ESP: 'ES', ARG: 'AR', MEX: 'MX', BRA: 'BR', PRT: 'PT' };

interface DocumentResult {
  file: string;
  large: boolean;
  equal: Record<(typeof KEYS)[number], boolean>;
  code: string | null;
  cpuMs: number;
  read: string;
}

async function readDocument(entry: EvalEntry, file: string, stated: StatedFields, state: string) {
  const country = COUNTRY_OF[state] ?? 'XX';
  const layouts = layoutsFor('passport', country, 'front');
  const inspected = await inspectImage(file, {
    document: true,
    faces: true,
    viz: layouts.flatMap(layoutCrops),
  });
  if (!inspected.ok || !inspected.vizCrops) return undefined;
  const meta = await sharp(file).metadata();
  const aspect =
    inspected.document?.aspect ??
    Math.max(meta.width ?? 1, meta.height ?? 1) / Math.min(meta.width ?? 1, meta.height ?? 1);
  const layout = printedLayout(layouts, aspect)!;
  const facts: InputFacts = {};
  const cpu = process.cpuUsage();
  const verdict = await judgePrintedFields(layout, inspected.vizCrops, country, stated, facts);
  const used = process.cpuUsage(cpu);
  const fields = facts.printed?.fields ?? {};
  const equal = Object.fromEntries(
    KEYS.map((key) => {
      const fact = fields[key];
      return [key, fact?.state === 'read' && agreement(key, fact.value, stated) === 'equal'];
    }),
  ) as DocumentResult['equal'];
  return {
    file: path.basename(entry.file),
    equal,
    code: verdict ? `documentPhoto.${verdict.code}` : null,
    cpuMs: Math.round((used.user + used.system) / 1000),
    read: KEYS.map((key) => {
      const fact = fields[key];
      return `${key}=${fact?.state === 'read' ? JSON.stringify(fact.value) : (fact?.state ?? 'none')}`;
    }).join(' '),
  };
}

export async function printedFieldsAccuracy(set: EvalSet): Promise<AccuracySection> {
  const documents = set.entries.filter((e) => e.kind === 'document' && e.expect === 'mrz');
  const scratch = await mkdtemp(path.join(tmpdir(), 'idv-viz-bench-'));
  const results: DocumentResult[] = [];
  const noTruth: string[] = [];
  let first = true;
  try {
    for (const entry of documents) {
      const zone = await readMrz(entry.path);
      if (!zone.found || !zone.valid) {
        noTruth.push(path.basename(entry.file));
        continue;
      }
      const meta = await sharp(entry.path).metadata();
      const large = Math.min(meta.width ?? 0, meta.height ?? 0) >= MIN_SIDE;
      let file = entry.path;
      if (!large) {
        file = path.join(scratch, `${path.basename(entry.file)}.png`);
        const scale = MIN_SIDE / Math.min(meta.width ?? MIN_SIDE, meta.height ?? MIN_SIDE);
        await sharp(entry.path)
          .resize({ width: Math.round((meta.width ?? MIN_SIDE) * scale) })
          .png()
          .toFile(file);
      }
      const stated = zone.person;
      if (first) {
        // Untimed: the OCR workers start and load their data.
        await readDocument(entry, file, stated, zone.issuingState ?? '');
        first = false;
      }
      const result = await readDocument(entry, file, stated, zone.issuingState ?? '');
      if (result) results.push({ ...result, large });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await closeVizReader();
    await closeMrzReader();
  }
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  for (const [name, group] of [
    ['≥ 600 px', results.filter((r) => r.large)],
    ['< 600 px (enlarged)', results.filter((r) => !r.large)],
  ] as const) {
    const all = group.filter((r) => KEYS.every((k) => r.equal[k])).length;
    const per = Object.fromEntries(KEYS.map((k) => [k, group.filter((r) => r.equal[k]).length]));
    const refused = group.filter((r) => r.code);
    const cpu = group.map((r) => r.cpuMs).sort((a, b) => a - b);
    lines.push(
      `${name}: ${group.length} documents; surname, number and birth date all equal to the zone's on ${all} ` +
        `(${group.length ? Math.round((100 * all) / group.length) : 0} %); surname ${per.lastName}, number ${per.documentNumber}, ` +
        `birth date ${per.dateOfBirth}; genuine documents refused by the printed-field rule: ${refused.length}` +
        `${refused.length ? ` (${refused.map((r) => `${r.file} ${r.code}`).join(', ')})` : ''}; ` +
        `CPU per document median ${percentile(cpu, 50)} ms, p90 ${percentile(cpu, 90)} ms`,
    );
    figures[name] = {
      documents: group.length,
      allThreeEqual: all,
      ...per,
      refused: refused.length,
      cpuMedianMs: percentile(cpu, 50),
      cpuP90Ms: percentile(cpu, 90),
    };
  }
  for (const r of results)
    lines.push(`  ${r.large ? '≥600' : '<600'} ${r.file}: ${r.read}${r.code ? ` → ${r.code}` : ''}`);
  if (noTruth.length) lines.push(`no valid zone (no truth), not counted: ${noTruth.join(', ')}`);
  figures.noTruth = noTruth.length;
  return { name: 'printed fields (VIZ) against the zone', lines, figures };
}
