// The document finder (`@/shared/document-outline`, run by the service's image check) on a folder
// of labelled real photos: every `document` entry must be found (framed, filling the frame, or
// cropped: anything but "no document"), every `face` entry refused as a document. Time is the
// finder's own in the service's code (inspectImage in this process, OpenCV loaded beforehand).
import { loadOpenCv } from '@/service/checks/document-finder';
import { inspectImage } from '@/service/checks/image';
import type { AccuracySection, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

export async function documentsSection(set: EvalSet): Promise<AccuracySection> {
  loadOpenCv();
  const docs = set.entries.filter((e) => e.kind === 'document');
  const faces = set.entries.filter((e) => e.kind === 'face');
  const times: number[] = [];
  const verdicts: Record<string, string> = {};
  for (const entry of [...docs, ...faces]) {
    const inspected = await inspectImage(entry.path, { document: true });
    const outline = inspected.ok ? inspected.document : undefined;
    verdicts[entry.file] = outline?.verdict ?? 'unreadable';
    if (outline) times.push(outline.ms);
  }
  const missed = docs.filter((e) => verdicts[e.file] === 'none' || verdicts[e.file] === 'unreadable');
  const accepted = faces.filter((e) => verdicts[e.file] !== 'none');
  const count = (kind: string) => docs.filter((e) => verdicts[e.file] === kind).length;
  const figures = {
    documents: docs.length,
    documentsFound: docs.length - missed.length,
    framed: count('framed'),
    fullFrame: count('fullFrame'),
    cropped: count('cropped'),
    faces: faces.length,
    facesRefused: faces.length - accepted.length,
    msP50: median(times),
    msP99: percentile(times, 99),
  };
  return {
    name: 'documents found (service)',
    lines: [
      `documents found ${figures.documentsFound}/${docs.length} (framed ${figures.framed}, filling the frame ${figures.fullFrame}, cropped ${figures.cropped})`,
      `face photos refused as documents ${figures.facesRefused}/${faces.length}`,
      `finder time per image p50 ${figures.msP50} ms, p99 ${figures.msP99} ms`,
      ...missed.map((e) => `  missed document: ${e.file}`),
      ...accepted.map((e) => `  face taken for a document (${verdicts[e.file]}): ${e.file}`),
    ],
    figures,
  };
}
