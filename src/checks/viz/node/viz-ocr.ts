import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { OcrLine } from '@/checks/viz/printed-fields';

/**
 * The OCR of the printed fields: tesseract.js's LSTM with the integer-quantized "best" data of the
 * document's language (`@tesseract.js-data/spa`, `por`, `eng`: 2.1, 1.4 and 2.9 MB), so that
 * Spanish and Portuguese names keep their Ñ, Ç and accents; every comparison normalises them anyway
 * (a zone writes none). One worker thread per language, started on its first document.
 */

export type VizLanguage = 'spa' | 'por' | 'eng';

const SPANISH = new Set(['AR', 'MX', 'ES', 'CO', 'CL', 'PE', 'UY', 'PY', 'BO', 'EC', 'VE']);
const PORTUGUESE = new Set(['BR', 'PT']);

/** The OCR language of a claimed country's documents (their names and labels). */
export function vizLanguage(country: string): VizLanguage {
  const state = country.toUpperCase();
  if (SPANISH.has(state)) return 'spa';
  if (PORTUGUESE.has(state)) return 'por';
  return 'eng';
}

const require = createRequire(import.meta.url);
const workers = new Map<VizLanguage, Promise<Worker>>();

function ocrWorker(language: VizLanguage): Promise<Worker> {
  let worker = workers.get(language);
  if (!worker) {
    worker = createWorker(language, OEM.LSTM_ONLY, {
      langPath: join(dirname(require.resolve(`@tesseract.js-data/${language}`)), '4.0.0_best_int'),
      gzip: true,
      cacheMethod: 'none',
    }).then(async (w) => {
      await w.setParameters({ tessedit_do_invert: '0', user_defined_dpi: '300' });
      return w;
    });
    workers.set(language, worker);
    worker.catch(() => workers.delete(language));
  }
  return worker;
}

/** Ends the OCR worker threads (service shutdown, tests). */
export async function closeVizReader() {
  const started = [...workers.values()];
  workers.clear();
  await Promise.all(started.map(async (w) => (await w.catch(() => undefined))?.terminate()));
}

/**
 * The lines and words of a crop (a PGM file): a field's box as one block of text, a page's
 * personal data zone as a page (columns found by the OCR's layout analysis).
 */
export async function ocrLines(image: Uint8Array, language: VizLanguage, page: boolean): Promise<OcrLine[]> {
  const w = await ocrWorker(language);
  await w.setParameters({ tessedit_pageseg_mode: page ? PSM.AUTO : PSM.SINGLE_BLOCK });
  const { data } = await w.recognize(
    Buffer.from(image.buffer, image.byteOffset, image.byteLength),
    {},
    { blocks: true, text: false },
  );
  return (data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map((line) => ({
        words: line.words
          .filter((word) => word.text.trim())
          .map((word) => ({ text: word.text, confidence: word.confidence, ...word.bbox })),
      })),
    ),
  );
}
