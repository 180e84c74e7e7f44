// documentPhoto.screenPhoto on a folder of labelled real photos: the screen look
// (`@/checks/document/screen-photo`) on the service's own decode (inspectImage, as a document
// photo's send-input runs it), every `document` entry and every `face` photo. Caught: the
// `screenPhoto` entries called screens; false refusals: genuine documents (`mrz`, `noMrz`), paper
// copies (`paperCopy`), covered copies (`occluded`) and photos of people called screens, each named.
import path from 'node:path';
import { isScreenPhoto, SCREEN_SHARE_MIN } from '@/checks/document/screen-photo';
import { inspectImage } from '@/checks/image/node/image';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

const groups = {
  screens: (e: EvalEntry) => e.kind === 'document' && e.expect === 'screenPhoto',
  genuine: (e: EvalEntry) => e.kind === 'document' && (e.expect === 'mrz' || e.expect === 'noMrz'),
  paperCopies: (e: EvalEntry) => e.kind === 'document' && e.expect === 'paperCopy',
  covered: (e: EvalEntry) => e.kind === 'document' && e.expect === 'occluded',
  faces: (e: EvalEntry) => e.kind === 'face',
};

export async function screensSection(set: EvalSet): Promise<AccuracySection> {
  const called = new Map<string, number>();
  const times: number[] = [];
  const cpu: number[] = [];
  const measured = set.entries.filter((e) => Object.values(groups).some((g) => g(e)));
  for (const entry of measured) {
    const inspected = await inspectImage(entry.path, { screen: true });
    if (!inspected.ok || !inspected.screen) continue;
    times.push(inspected.screen.ms);
    cpu.push(inspected.screen.cpuMs);
    if (isScreenPhoto(inspected.screen)) called.set(entry.file, inspected.screen.share);
  }
  const lines: string[] = [];
  const figures: Record<string, unknown> = { shareMin: SCREEN_SHARE_MIN };
  for (const [name, belongs] of Object.entries(groups)) {
    const entries = set.entries.filter(belongs);
    const hits = entries.filter((e) => called.has(e.file));
    figures[name] = entries.length;
    figures[`${name}CalledScreens`] = hits.length;
    if (!entries.length) continue;
    const label = name === 'screens' ? 'caught' : 'called screens (false refusals)';
    lines.push(`${name}: ${label} ${hits.length}/${entries.length}`);
    if (name === 'screens') {
      for (const e of entries.filter((e) => !called.has(e.file)))
        lines.push(`  missed: ${path.basename(e.file)}`);
    } else {
      for (const e of hits) lines.push(`  called a screen (${called.get(e.file)}): ${e.file}`);
    }
  }
  figures.msP50 = median(times);
  figures.msP99 = percentile(times, 99);
  figures.cpuMsP50 = median(cpu);
  figures.cpuMsP99 = percentile(cpu, 99);
  lines.push(
    `screen look per photo (1024 px decode): CPU p50 ${figures.cpuMsP50} ms, p99 ${figures.cpuMsP99} ms; wall p50 ${figures.msP50} ms, p99 ${figures.msP99} ms`,
  );
  return { name: 'screen photos (documentPhoto.screenPhoto)', lines, figures };
}
