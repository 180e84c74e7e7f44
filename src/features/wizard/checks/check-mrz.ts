import { parse } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_PARAMETERS,
  MRZ_OCR_MAX_HEIGHT,
  MRZ_OCR_WIDTH,
  mrzLines,
  parseMrzLines,
  type MrzRead,
} from '@/shared/document-reading';
import { findMrzBands, mrzBandPixels, mrzGrey, pgm, stretchContrast } from '@/shared/mrz-band';
import { GLYPH_MIN_SCORE, readMrzByGlyphs, readMrzGlyphs } from '@/shared/mrz-glyphs';

/**
 * The machine-readable zone read in the browser as the service reads it (`src/service/checks/mrz.ts`):
 * on the same bands of the photo (`@/shared/mrz-band`), the glyph reader first (`@/shared/mrz-glyphs`),
 * then, for a band it did not read alone, tesseract.js with the same English LSTM data
 * (`@tesseract.js-data/eng`, 4.0.0_best_int), parameters and page mode; parsed by `mrz` with its
 * check digits through `@/shared/document-reading`. The OCR's worker script, wasm core and language
 * data are files of the app (vite.config.ts serves them from node_modules): nothing comes from a
 * CDN, and they are fetched only when a band needs the OCR.
 */

let loading: Promise<Worker> | undefined;
const asset = (path: string) => new URL(`/models/tesseract/${path}`, location.href).href;

function ocrWorker(): Promise<Worker> {
  loading ??= (async () => {
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      workerPath: asset('worker.min.js'),
      // A folder: tesseract.js picks the relaxed-SIMD, SIMD or plain LSTM build the browser runs.
      corePath: asset('core'),
      langPath: asset('eng'),
      gzip: true,
      cacheMethod: 'none',
      // The worker is a file of the app (worker-src 'self'), not a blob made from a fetched script.
      workerBlobURL: false,
    });
    await worker.setParameters({ ...MRZ_OCR_PARAMETERS, tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return worker;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Starts loading the OCR ahead of a reading (the benchmark times readings with the OCR loaded). */
export const preloadMrzCheck = () => ocrWorker().then(() => undefined);

/** Grey pixels of the photo at the OCR size (luma, one byte each, row by row). */
async function greyPixels(image: Blob) {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const scale = Math.min(MRZ_OCR_WIDTH / bitmap.width, MRZ_OCR_MAX_HEIGHT / bitmap.height);
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const grey = mrzGrey(context.getImageData(0, 0, width, height).data, 4);
  return { grey: stretchContrast(grey), width, height };
}

export interface MrzCheck {
  read: MrzRead;
  /** Time of the reading and parsing, the OCR loaded when it was needed (for the benchmark). */
  readMs: number;
}

/**
 * Reads and parses the MRZ of a document photo: the bands `findMrzBands` finds, lowest first, each
 * read alone; none found is no MRZ, without running the OCR. As in the service, a band whose glyphs
 * the glyph reader is sure of and whose check digits hold needs no OCR.
 */
export async function readMrz(image: Blob): Promise<MrzCheck> {
  const start = performance.now();
  const { grey, width, height } = await greyPixels(image);
  let read: MrzRead = { found: false };
  for (const band of findMrzBands(grey, width, height)) {
    const pixels = mrzBandPixels(grey, width, band);
    const byGlyphs = readMrzByGlyphs(pixels, parse);
    if (byGlyphs) {
      read = byGlyphs;
      break;
    }
    // Only a band the glyph reader did not read alone fetches and starts the OCR (4.3 MB).
    const worker = await ocrWorker();
    const bandImage = new Blob([pgm(pixels)], { type: 'image/x-portable-graymap' });
    const lines = mrzLines((await worker.recognize(bandImage)).data.text);
    if (lines.length === 0) continue;
    read = parseMrzLines(lines, parse);
    break;
  }
  return { read, readMs: performance.now() - start };
}

/**
 * Whether a camera frame shows the zone well enough to read: a band of MRZ lines whose every glyph
 * the glyph reader recognises (`GLYPH_MIN_SCORE`). For the live camera's hint, a few times a second:
 * no OCR, so nothing heavy is fetched or run while the person frames the document.
 */
export async function mrzInView(image: Blob): Promise<boolean> {
  const { grey, width, height } = await greyPixels(image);
  return findMrzBands(grey, width, height).some(
    (band) => (readMrzGlyphs(mrzBandPixels(grey, width, band))?.minScore ?? 0) >= GLYPH_MIN_SCORE,
  );
}
