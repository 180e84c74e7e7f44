import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'mrz';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { MAX_IMAGE_PIXELS } from './image';
import type { Person } from './types';

/**
 * The machine-readable zone: OCR with tesseract.js (its wasm core and the English LSTM data come
 * from node_modules, `@tesseract.js-data/eng`; nothing is downloaded), then `mrz` checks the
 * check digits. The OCR runs in tesseract.js's worker thread, so it never holds the event loop.
 */

const require = createRequire(import.meta.url);
/** The integer-quantized "best" model: 2.9 MB, and on rendered MRZ lines as exact as the 10.9 MB one. */
const LANG_DIR = '4.0.0_best_int';
const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Share of the image height, from the bottom, read first (the zone sits at the foot of the page). */
export const MRZ_BOTTOM_SHARE = 0.3;
/** Images are shrunk to this width before OCR: a 44-character line keeps ~20 px per character. */
const OCR_WIDTH = 1000;

let worker: Promise<Worker> | undefined;

function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const langPath = join(dirname(require.resolve('@tesseract.js-data/eng')), LANG_DIR);
    const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
    await w.setParameters({
      tessedit_char_whitelist: MRZ_ALPHABET,
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    });
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

export type MrzRead =
  | { found: false }
  | { found: true; valid: false; lines: string[] }
  | {
      found: true;
      valid: true;
      lines: string[];
      /** ICAO document code: P…, I…, A…, C…, V… */
      documentCode: string;
      /** ICAO 9303 state code of the issuer, e.g. GBR. */
      issuingState: string;
      person: Person;
    };

const TD_LENGTHS = [44, 36, 30];

/** Lines that look like MRZ: long runs of the MRZ alphabet with filler. Near-misses are re-padded. */
export function mrzLines(text: string): string[] {
  const candidates = text
    .split('\n')
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''))
    .filter((l) => l.length >= 26 && l.includes('<'));
  if (candidates.length < 2) return [];
  const length = TD_LENGTHS.find((n) => candidates.every((l) => Math.abs(l.length - n) <= 2));
  if (!length) return candidates;
  return candidates.map((l) => (l.length > length ? l.slice(0, length) : l.padEnd(length, '<')));
}

const century = (yymmdd: string, pastOnly: boolean, now = new Date()) => {
  const yy = Number(yymmdd.slice(0, 2));
  const current = now.getUTCFullYear() % 100;
  // Birth dates are in the past; expiry dates within the next 50 years.
  const year = pastOnly ? (yy > current ? 1900 + yy : 2000 + yy) : yy >= current + 50 ? 1900 + yy : 2000 + yy;
  return `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
};

const sexOf = (sex: string | null | undefined) =>
  sex === 'male' ? 'M' : sex === 'female' ? 'F' : sex ? 'X' : undefined;

/** Parses MRZ lines with check digits; the person it states when every check digit holds. */
export function parseMrzLines(lines: string[]): MrzRead {
  if (lines.length === 0) return { found: false };
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines);
  } catch {
    return { found: true, valid: false, lines };
  }
  const f = result.fields;
  if (!result.valid || !f.documentCode || !f.issuingState) return { found: true, valid: false, lines };
  const lastName = f.lastName?.trim() ?? '';
  const firstName = f.firstName?.trim() ?? '';
  const person: Person = {
    fullName: `${firstName} ${lastName}`.trim() || (f.documentNumber ?? ''),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(f.documentNumber ? { documentNumber: f.documentNumber } : {}),
    ...(f.nationality ? { nationality: f.nationality } : {}),
    ...(f.birthDate ? { dateOfBirth: century(f.birthDate, true) } : {}),
    ...(f.expirationDate ? { expiryDate: century(f.expirationDate, false) } : {}),
    ...(sexOf(f.sex) ? { sex: sexOf(f.sex) } : {}),
  };
  return {
    found: true,
    valid: true,
    lines,
    documentCode: f.documentCode,
    issuingState: f.issuingState,
    person,
  };
}

async function ocr(png: Buffer) {
  const w = await ocrWorker();
  const { data } = await w.recognize(png);
  return mrzLines(data.text);
}

/** Reads the MRZ of a document photo: the bottom of the image first, then the whole image. */
export async function readMrz(path: string): Promise<MrzRead> {
  const base = () =>
    sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: OCR_WIDTH, withoutEnlargement: false })
      .greyscale()
      .normalise();
  const whole = await base().png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  const { width, height } = whole.info;
  const top = Math.floor(height * (1 - MRZ_BOTTOM_SHARE));
  const bottom = await sharp(whole.data)
    .extract({ left: 0, top, width, height: height - top })
    .png({ compressionLevel: 1 })
    .toBuffer();
  let lines = await ocr(bottom);
  if (lines.length === 0) lines = await ocr(whole.data);
  return parseMrzLines(lines);
}
