import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * The zone's OCR-B model (`@/checks/mrz`'s, copied beside the built service by src/build/servers.ts):
 * many issuers print the document number in OCR-B too, whose 0, O, 4 and T the language models
 * confuse; it reads capitals, digits and fillers only, so it is used for numbers alone.
 */
const OCRB_LANG_PATH = import.meta.url.endsWith('.js')
  ? join(dirname(fileURLToPath(import.meta.url)), 'tesseract-mrz')
  : fileURLToPath(new URL('../../mrz/node/tesseract-mrz', import.meta.url));

/** An OCR model: a language's, or `mrz` (OCR-B capitals and digits). */
export type VizModel = VizLanguage | 'mrz';

const require = createRequire(import.meta.url);
const workers = new Map<VizModel, Promise<Worker>>();

function ocrWorker(language: VizModel): Promise<Worker> {
  let worker = workers.get(language);
  if (!worker) {
    worker = createWorker(language, OEM.LSTM_ONLY, {
      langPath:
        language === 'mrz'
          ? OCRB_LANG_PATH
          : join(dirname(require.resolve(`@tesseract.js-data/${language}`)), '4.0.0_best_int'),
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
 * How a crop is laid out for the OCR: `block` a field's box as one block of text, `page` a page's
 * personal data zone (columns found by the OCR's layout analysis), `sparse` as much text as can be
 * found in no particular order (a data page on guilloches, where the layout analysis loses lines).
 */
export type OcrLayout = 'block' | 'page' | 'sparse';

const PSM_OF = { block: PSM.SINGLE_BLOCK, page: PSM.AUTO, sparse: PSM.SPARSE_TEXT } as const;

/** The lines and words of a crop (a PGM file), laid out as asked. */
export async function ocrLines(image: Uint8Array, language: VizModel, layout: OcrLayout): Promise<OcrLine[]> {
  const w = await ocrWorker(language);
  await w.setParameters({ tessedit_pageseg_mode: PSM_OF[layout] });
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
