import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'mrz';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_MAX_HEIGHT,
  MRZ_OCR_WIDTH,
  MRZ_OCR_PARAMETERS,
  mrzLines,
  parseMrzLines as parseMrzWith,
  type MrzRead,
} from '@/shared/document-reading';
import { findMrzBands, mrzBandImage, stretchContrast } from '@/shared/mrz-band';
import { MAX_IMAGE_PIXELS } from './image';

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

async function ocr(image: Buffer) {
  const w = await ocrWorker();
  const { data } = await w.recognize(image);
  return mrzLines(data.text);
}

/**
 * Reads the MRZ of a document photo: the bands `findMrzBands` finds (lowest first), each cropped
 * and read alone; none found is no MRZ, without running the OCR.
 */
export async function readMrz(path: string): Promise<MrzRead> {
  const { data, info } = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
    .rotate()
    .resize({ width: MRZ_OCR_WIDTH, height: MRZ_OCR_MAX_HEIGHT, fit: 'inside', withoutEnlargement: false })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const grey = stretchContrast(new Uint8Array(data.buffer, data.byteOffset, width * height));
  for (const band of findMrzBands(grey, width, height)) {
    const lines = await ocr(Buffer.from(mrzBandImage(grey, width, band)));
    if (lines.length > 0) return parseMrzLines(lines);
  }
  return { found: false };
}
