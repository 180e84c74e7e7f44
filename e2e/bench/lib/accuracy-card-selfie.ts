// A document sent as the selfie (issue 35): the service's selfie check refuses a photo that shows
// lines of print (`selfieShowsDocument` on the document finder's look, run by inspectImage as a
// selfie's send-input runs it) as `selfiePhoto.validationError`. Caught: every `document` entry (genuine
// specimens, paper copies, covered copies: a photo of a card); false refusals: every `face` photo
// (people, masks, glasses), each named. Entries under 600 px are measured as they are (the service
// refuses them for their size first).
import { SELFIE_PRINT_MIN_CHARS, selfieShowsDocument } from '@/checks/document/document-outline';
import { inspectImage } from '@/checks/image/node/image';
import type { AccuracySection, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

export async function cardSelfieSection(set: EvalSet): Promise<AccuracySection> {
  const documents = set.entries.filter((e) => e.kind === 'document' && e.expect !== 'screenPhoto');
  const faces = set.entries.filter((e) => e.kind === 'face');
  const printed = new Map<string, string>();
  const times: number[] = [];
  const chars = new Map<string, number>();
  for (const entry of [...documents, ...faces]) {
    const inspected = await inspectImage(entry.path, { document: true });
    if (!inspected.ok || !inspected.document) continue;
    times.push(inspected.document.ms);
    chars.set(entry.file, inspected.document.textChars);
    if (selfieShowsDocument(inspected.document.verdict, inspected.document.textChars))
      printed.set(entry.file, `${inspected.document.verdict}, ${inspected.document.textChars} characters`);
  }
  const caught = documents.filter((e) => printed.has(e.file));
  const refused = faces.filter((e) => printed.has(e.file));
  const figures = {
    documents: documents.length,
    documentsRefusedAsSelfies: caught.length,
    faces: faces.length,
    facesRefused: refused.length,
    finderMsP50: median(times),
    finderMsP99: percentile(times, 99),
  };
  return {
    name: 'documents sent as selfies (selfiePhoto.validationError)',
    lines: [
      `document photos sent as selfies refused ${caught.length}/${documents.length}`,
      ...documents.filter((e) => !printed.has(e.file)).map((e) => `  kept as a selfie: ${e.file}`),
      `photos of people refused as documents (false refusals) ${refused.length}/${faces.length}`,
      ...refused.map((e) => `  refused (${printed.get(e.file)}): ${e.file}`),
      `photos of people: most characters in lines ${Math.max(0, ...faces.map((e) => chars.get(e.file) ?? 0))} (a document from ${SELFIE_PRINT_MIN_CHARS}, or framed with print)`,
      `document finder per selfie p50 ${figures.finderMsP50} ms, p99 ${figures.finderMsP99} ms (wall)`,
    ],
    figures,
  };
}
