import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_PARAMETERS,
  parseMrzLines as parseMrzWith,
  type MrzRead,
} from '@/checks/mrz/document-reading';
import { readMrzBandsWith, type MrzModel } from '@/checks/mrz/mrz-read';
import { isState, mrzBandImages, type MrzBandRead } from './mrz-bands';

/**
 * The machine-readable zone: OCR with tesseract.js (its wasm core from node_modules) and an LSTM
 * model trained on machine-readable zones (`src/checks/mrz/node/tesseract-mrz`, 1.3 MB: the English model
 * reads OCR-B's filler `<` as `K`/`L` and O as 0), corrected by field and check digit
 * (`@/checks/mrz/mrz-fields`, in the order of `@/checks/mrz/mrz-read`), then `mrz` checks the check digits. The OCR runs in tesseract.js's
 * worker thread, so it never holds the event loop. Nothing is downloaded.
 */

/** The MRZ model's folder: beside the built service (src/build/servers.ts copies it), else the repository's. */
const MRZ_LANG_PATH = import.meta.url.endsWith('.js')
  ? join(dirname(fileURLToPath(import.meta.url)), 'tesseract-mrz')
  : fileURLToPath(new URL('./tesseract-mrz', import.meta.url));
/**
 * The models: the MRZ one first; the English one (integer-quantized "best", 2.9 MB, from
 * `@tesseract.js-data/eng`) reads a band the first does not read valid, for zones printed in
 * another typeface than OCR-B (the samples' DejaVu Sans Mono, whose 7 the MRZ model takes for T).
 */
const require = createRequire(import.meta.url);
const MODELS: Record<MrzModel, () => string> = {
  mrz: () => MRZ_LANG_PATH,
  eng: () => join(dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int'),
};

const workers = new Map<MrzModel, Promise<Worker>>();

function ocrWorker(model: MrzModel): Promise<Worker> {
  let worker = workers.get(model);
  if (!worker) {
    worker = (async () => {
      const w = await createWorker(model, OEM.LSTM_ONLY, {
        langPath: MODELS[model](),
        gzip: true,
        cacheMethod: 'none',
      });
      await w.setParameters({ ...MRZ_OCR_PARAMETERS, tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
      return w;
    })();
    workers.set(model, worker);
    worker.catch(() => workers.delete(model));
  }
  return worker;
}

/** Ends the OCR worker threads (service shutdown, tests). */
export async function closeMrzReader() {
  const started = [...workers.values()];
  workers.clear();
  await Promise.all(started.map(async (w) => (await w).terminate()));
}

/** Starts the OCR workers ahead of the first document (each takes about a second). */
export const warmMrzReader = () => Promise.all([ocrWorker('mrz'), ocrWorker('eng')]).then(() => undefined);

/** Parses MRZ lines with check digits (`@/checks/mrz/document-reading`, the wizard's rule too). */
export const parseMrzLines = (lines: string[]): MrzRead => parseMrzWith(lines, parse);

async function ocrText(image: Uint8Array, model: MrzModel) {
  const w = await ocrWorker(model);
  const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  return data.text;
}

/**
 * Reads the MRZ from the bands `mrzBandImages` found, in the order `@/checks/mrz/mrz-read` gives (the
 * wizard's too): the glyph reader's zone, else the MRZ model (the band turned half a turn when it
 * reads nothing), else the English model; none is no MRZ, without running the OCR.
 */
export const readMrzBands = (bands: readonly MrzBandRead[]): Promise<MrzRead> =>
  readMrzBandsWith(
    bands.map((band) => ({
      image: band.pgm,
      turned: band.turnedPgm,
      evened: band.evenedPgm,
      byGlyphs: band.byGlyphs,
      plausible: band.plausible,
    })),
    { ocr: ocrText, parse, isState },
  );

/** Reads the MRZ of a document photo file (its own decode; send-input gets the bands from the image pool). */
export const readMrz = async (path: string): Promise<MrzRead> => readMrzBands(await mrzBandImages(path));
