// documentPhoto.occludedDocument on a folder of labelled real photos: the cover look
// (`@/checks/document/occlusion`) on the service's own decode (inspectImage, as a document photo's
// send-input runs it), every `document` entry. Caught: the `occluded` entries called covered;
// false refusals: genuine documents (`mrz`, `noMrz`), paper copies (`paperCopy`) and screen
// photos (`screenPhoto`, judged first in the service) called covered, each named.
import path from 'node:path';
import {
  COVER_INSIDE_MIN,
  COVER_OUTSIDE_SHARE,
  COVER_TEXT_MIN_CHARS,
  isCovered,
} from '@/checks/document/occlusion';
import { inspectImage } from '@/checks/image/node/image';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

const groups = {
  covered: (e: EvalEntry) => e.kind === 'document' && e.expect === 'occluded',
  genuine: (e: EvalEntry) => e.kind === 'document' && (e.expect === 'mrz' || e.expect === 'noMrz'),
  paperCopies: (e: EvalEntry) => e.kind === 'document' && e.expect === 'paperCopy',
  screens: (e: EvalEntry) => e.kind === 'document' && e.expect === 'screenPhoto',
};

export async function occlusionSection(set: EvalSet): Promise<AccuracySection> {
  const called = new Map<string, string>();
  const seen = new Map<string, string>();
  const times: number[] = [];
  const cpu: number[] = [];
  const measured = set.entries.filter((e) => Object.values(groups).some((g) => g(e)));
  for (const entry of measured) {
    const inspected = await inspectImage(entry.path, { cover: true, document: true });
    if (!inspected.ok || !inspected.cover) continue;
    const { cover } = inspected;
    times.push(cover.ms);
    cpu.push(cover.cpuMs);
    const chars = inspected.document?.textChars ?? 0;
    const what = `${cover.inside} blocks over the document, ${cover.outside} beyond it, of ${cover.blocks}; ${chars} characters in lines`;
    seen.set(entry.file, what);
    if (isCovered(cover, chars)) called.set(entry.file, what);
  }
  const lines: string[] = [];
  const figures: Record<string, unknown> = {
    insideMin: COVER_INSIDE_MIN,
    outsideShare: COVER_OUTSIDE_SHARE,
    textCharsMin: COVER_TEXT_MIN_CHARS,
  };
  for (const [name, belongs] of Object.entries(groups)) {
    const entries = set.entries.filter(belongs);
    const hits = entries.filter((e) => called.has(e.file));
    figures[name] = entries.length;
    figures[`${name}CalledCovered`] = hits.length;
    if (!entries.length) continue;
    const label = name === 'covered' ? 'caught' : 'called covered (false refusals)';
    lines.push(`${name}: ${label} ${hits.length}/${entries.length}`);
    if (name === 'covered') {
      for (const e of entries) {
        const word = called.has(e.file) ? 'caught' : 'missed';
        lines.push(`  ${word} (${seen.get(e.file) ?? 'not looked at'}): ${path.basename(e.file)}`);
      }
    } else {
      for (const e of hits) lines.push(`  called covered (${called.get(e.file)}): ${e.file}`);
    }
  }
  figures.msP50 = median(times);
  figures.msP99 = percentile(times, 99);
  figures.cpuMsP50 = median(cpu);
  figures.cpuMsP99 = percentile(cpu, 99);
  lines.push(
    `cover look per photo (1024 px decode): CPU p50 ${figures.cpuMsP50} ms, p99 ${figures.cpuMsP99} ms; wall p50 ${figures.msP50} ms, p99 ${figures.msP99} ms`,
  );
  return { name: 'covered documents (documentPhoto.occludedDocument)', lines, figures };
}
