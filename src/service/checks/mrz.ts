import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_PARAMETERS,
  mrzLines,
  parseMrzLines as parseMrzWith,
  type MrzRead,
} from '@/shared/document-reading';
import { mrzBandImages, type MrzBandRead } from './mrz-bands';

/**
 * The machine-readable zone: OCR with tesseract.js (its wasm core and the English LSTM data come
 * from node_modules, `@tesseract.js-data/eng`; nothing is downloaded), then `mrz` checks the
 * check digits. The OCR runs in tesseract.js's worker thread, so it never holds the event loop.
 */

const require = createRequire(import.meta.url);
/** The integer-quantized "best" model: 2.9 MB, and on rendered MRZ lines as exact as the 10.9 MB one. */
const LANG_DIR = '4.0.0_best_int';

let worker: Promise<Worker> | undefined;

function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const langPath = join(dirname(require.resolve('@tesseract.js-data/eng')), LANG_DIR);
    const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
    await w.setParameters({ ...MRZ_OCR_PARAMETERS, tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return w;
  })();
  worker.catch(() => (worker = undefined));
  return worker;
}

/** Ends the OCR worker thread (service shutdown, tests). */
export async function closeMrzReader() {
  const w = worker;
  worker = undefined;
  if (w) await (await w).terminate();
}

/** Starts the OCR worker ahead of the first document (it takes about a second). */
export const warmMrzReader = () => ocrWorker().then(() => undefined);

/** Parses MRZ lines with check digits (`@/shared/document-reading`, the wizard's rule too). */
export const parseMrzLines = (lines: string[]): MrzRead => parseMrzWith(lines, parse);

async function ocr(image: Uint8Array) {
  const w = await ocrWorker();
  const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  return mrzLines(data.text);
}

/**
 * Reads the MRZ from the bands `mrzBandImages` found (lowest first), each read alone; none is no
 * MRZ, without running the OCR. A band the glyph reader read alone (sure of every glyph, check
 * digits holding) needs no OCR.
 */
export async function readMrzBands(bands: readonly MrzBandRead[]): Promise<MrzRead> {
  for (const band of bands) {
    if (band.byGlyphs) return band.byGlyphs;
    const lines = await ocr(band.pgm);
    if (lines.length > 0) return parseMrzLines(lines);
  }
  return { found: false };
}

/** Reads the MRZ of a document photo file (its own decode; send-input gets the bands from the image pool). */
export const readMrz = async (path: string): Promise<MrzRead> => readMrzBands(await mrzBandImages(path));
