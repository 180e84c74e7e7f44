import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, states } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_PARAMETERS,
  mrzLines,
  parseMrzLines as parseMrzWith,
  type MrzRead,
} from '@/shared/document-reading';
import { correctMrz } from '@/shared/mrz-fields';
import { mrzBandImages, type MrzBandRead } from './mrz-bands';

/**
 * The machine-readable zone: OCR with tesseract.js (its wasm core from node_modules) and an LSTM
 * model trained on machine-readable zones (`vendor/tesseract-mrz`, 1.3 MB: the English model
 * reads OCR-B's filler `<` as `K`/`L` and O as 0), corrected by field and check digit
 * (`@/shared/mrz-fields`), then `mrz` checks the check digits. The OCR runs in tesseract.js's
 * worker thread, so it never holds the event loop. Nothing is downloaded.
 */

/** The model's folder: beside the built service (src/build/servers.ts copies it), else the repository's. */
const LANG_PATH = import.meta.url.endsWith('.js')
  ? join(dirname(fileURLToPath(import.meta.url)), 'tesseract-mrz')
  : fileURLToPath(new URL('../../../vendor/tesseract-mrz', import.meta.url));

let worker: Promise<Worker> | undefined;

function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const w = await createWorker('mrz', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
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

/** Whether the `mrz` package lists a state code. */
const isState = (code: string) => Object.hasOwn(states, code);

/** Parses MRZ lines with check digits (`@/shared/document-reading`, the wizard's rule too). */
export const parseMrzLines = (lines: string[]): MrzRead => parseMrzWith(lines, parse);

async function ocr(image: Uint8Array): Promise<MrzRead> {
  const w = await ocrWorker();
  const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  const lines = mrzLines(data.text);
  if (lines.length === 0) return { found: false };
  return parseMrzLines(correctMrz(lines, isState));
}

/**
 * Reads the MRZ from the bands `mrzBandImages` found (lowest first), each read alone; none is no
 * MRZ, without running the OCR. A band the glyph reader read alone (sure of every glyph, check
 * digits holding) needs no OCR; one the OCR reads as nothing is read again turned half a turn.
 * The first valid zone wins, else the first zone read.
 */
export async function readMrzBands(bands: readonly MrzBandRead[]): Promise<MrzRead> {
  let first: MrzRead = { found: false };
  for (const band of bands) {
    if (band.byGlyphs) return band.byGlyphs;
    let read = await ocr(band.pgm);
    if (!read.found && band.turnedPgm) read = await ocr(band.turnedPgm);
    if (read.found && read.valid) return read;
    if (!first.found) first = read;
  }
  return first;
}

/** Reads the MRZ of a document photo file (its own decode; send-input gets the bands from the image pool). */
export const readMrz = async (path: string): Promise<MrzRead> => readMrzBands(await mrzBandImages(path));
