// A document sent as the selfie (issue 35): the service's selfie check refuses a photo of a
// document (`selfieShowsDocument` of @/checks/document/selfie-document: its print, or its face a
// small portrait on a document's outline or far among print) as `selfiePhoto.validationError`, on
// the document finder's look (inspectImage, as a selfie's send-input runs it) and the selfie's
// largest face (the service's face detection, `selfie` use with the crowd pass). Caught: every
// `document` entry (genuine specimens, paper copies, covered copies: a photo of a card) and the
// product's own samples of identity documents with a portrait; false refusals: every `face` photo
// (people, masks, glasses), each named. Documents under 600 px are measured as they are; photos of
// people under 600 px as the service would see them, enlarged to its minimum (`asSent`): enlarged,
// the print behind a person (a curtain, a blind) reads as more characters.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SELFIE_PRINT_MIN_CHARS, selfieShowsDocument } from '@/checks/document/selfie-document';
import { detectFacesInFile } from '@/checks/face/node/faces';
import { inspectImage } from '@/checks/image/node/image';
import { asSent } from './as-sent';
import type { AccuracySection, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

const samplesDir = fileURLToPath(new URL('../../fixtures/samples/', import.meta.url));
/** The samples that are identity documents' sides with a portrait (their fronts, the passports). */
const portraitSamples = readdirSync(samplesDir)
  .filter((f) => /\.(jpe?g|png)$/.test(f))
  .filter((f) => /front|passport/.test(f) && !f.includes('proof-of'))
  .map((f) => ({ file: `samples/${f}`, path: `${samplesDir}${f}` }));

async function judged(path: string) {
  const inspected = await inspectImage(path, { document: true });
  if (!inspected.ok || !inspected.document) return null;
  const { document } = inspected;
  const reading = await detectFacesInFile(path, 'selfie', { crowd: true });
  const first = reading.faces[0];
  const reason = selfieShowsDocument({
    width: reading.width,
    height: reading.height,
    outline: document.verdict,
    textChars: document.textChars,
    ...(document.quad ? { quad: document.quad } : {}),
    ...(document.cards ? { cards: document.cards } : {}),
    ...(first
      ? {
          face: {
            x: first.box[0] / reading.width,
            y: first.box[1] / reading.height,
            w: first.box[2] / reading.width,
            h: first.box[3] / reading.height,
          },
        }
      : {}),
  });
  return { reason, ms: document.ms, chars: document.textChars, verdict: document.verdict };
}

export async function cardSelfieSection(set: EvalSet): Promise<AccuracySection> {
  const documents = set.entries.filter((e) => e.kind === 'document' && e.expect !== 'screenPhoto');
  const faces = set.entries.filter((e) => e.kind === 'face');
  const refusedAs = new Map<string, string>();
  const times: number[] = [];
  const chars = new Map<string, number>();
  const dir = await mkdtemp(path.join(tmpdir(), 'accuracy-card-selfie-'));
  const faceFiles = new Set(faces.map((e) => e.file));
  for (const entry of [...documents, ...faces, ...portraitSamples]) {
    const sent = faceFiles.has(entry.file)
      ? (await asSent(entry as (typeof faces)[number], dir)).file
      : entry.path;
    const look = await judged(sent);
    if (!look) continue;
    times.push(look.ms);
    chars.set(entry.file, look.chars);
    if (look.reason) refusedAs.set(entry.file, `${look.reason}: ${look.verdict}, ${look.chars} characters`);
  }
  await rm(dir, { recursive: true, force: true });
  const caught = documents.filter((e) => refusedAs.has(e.file));
  const samplesCaught = portraitSamples.filter((e) => refusedAs.has(e.file));
  const refused = faces.filter((e) => refusedAs.has(e.file));
  const byReason = (list: { file: string }[], reason: string) =>
    list.filter((e) => refusedAs.get(e.file)?.startsWith(`${reason}:`)).length;
  const figures = {
    documents: documents.length,
    documentsRefusedAsSelfies: caught.length,
    documentsByPrint: byReason(documents, 'print'),
    documentsByPortraitOnDocument: byReason(documents, 'portraitOnDocument'),
    documentsByFarFaceWithPrint: byReason(documents, 'farFaceWithPrint'),
    documentsByPortraitOnCard: byReason(documents, 'portraitOnCard'),
    samples: portraitSamples.length,
    samplesRefusedAsSelfies: samplesCaught.length,
    faces: faces.length,
    facesRefused: refused.length,
    finderMsP50: median(times),
    finderMsP99: percentile(times, 99),
  };
  return {
    name: 'documents sent as selfies (selfiePhoto.validationError)',
    lines: [
      `document photos sent as selfies refused ${caught.length}/${documents.length} (print ${figures.documentsByPrint}, portrait on a document's outline ${figures.documentsByPortraitOnDocument}, far face among print ${figures.documentsByFarFaceWithPrint}, far face on a card's outline ${figures.documentsByPortraitOnCard})`,
      ...documents.filter((e) => !refusedAs.has(e.file)).map((e) => `  kept as a selfie: ${e.file}`),
      `the product's samples with a portrait refused ${samplesCaught.length}/${portraitSamples.length}`,
      ...portraitSamples.filter((e) => !refusedAs.has(e.file)).map((e) => `  kept as a selfie: ${e.file}`),
      `photos of people refused as documents (false refusals; under 600 px enlarged as sent) ${refused.length}/${faces.length}`,
      ...refused.map((e) => `  refused (${refusedAs.get(e.file)}): ${e.file}`),
      `photos of people: most characters in lines ${Math.max(0, ...faces.map((e) => chars.get(e.file) ?? 0))} (print alone from ${SELFIE_PRINT_MIN_CHARS})`,
      `document finder per selfie p50 ${figures.finderMsP50} ms, p99 ${figures.finderMsP99} ms (wall)`,
    ],
    figures,
  };
}
