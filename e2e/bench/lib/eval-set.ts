// A folder of labelled real photos laid out like ../shared/eval: manifest.json lists the entries
// (file, kind, id, expect, framing, source); the benchmark takes the folder as its argument.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const entrySchema = z.object({
  file: z.string().min(1),
  kind: z.enum(['face', 'face-crop', 'document']),
  id: z.string().optional(),
  expect: z
    .enum([
      ...['ok', 'closedEyes', 'multipleFaces', 'wink', 'mask', 'sunglasses'],
      ...['mrz', 'noMrz', 'screenPhoto', 'paperCopy', 'occluded'],
    ] as const)
    .optional(),
  framing: z.enum(['close', 'wide']).optional(),
  source: z.unknown().optional(),
});
export type EvalEntry = z.infer<typeof entrySchema> & { path: string };

/**
 * A known labelling error of ../shared/eval, corrected in the benches' "corrected" figures only
 * (the figures as labelled stay the measure): human-stock-teen-1…4 are one woman (the same
 * umbrella shoot) but carry no `id`, so as labelled their six pairs count as different people.
 */
export const correctedId = (entry: EvalEntry) =>
  /human-stock-teen-[1-4]\.jpg$/.test(entry.file) ? 'human-stock-teen-umbrella' : entry.id;

export interface EvalSet {
  dir: string;
  entries: EvalEntry[];
}

export function loadEvalSet(dir: string): EvalSet {
  const manifest = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifest))
    throw new Error(`${manifest} not found: pass a folder laid out like ../shared/eval`);
  const entries = z
    .array(entrySchema)
    .parse(JSON.parse(fs.readFileSync(manifest, 'utf8')))
    .map((e) => ({ ...e, path: path.resolve(dir, e.file) }));
  return { dir, entries };
}

/** One block of the accuracy report: lines for people, figures for the closing JSON line. */
export interface AccuracySection {
  name: string;
  lines: string[];
  figures: Record<string, unknown>;
}
