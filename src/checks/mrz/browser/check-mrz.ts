import { parse, states } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_OCR_PARAMETERS,
  MRZ_OCR_MAX_HEIGHT,
  MRZ_OCR_WIDTH,
  type MrzRead,
} from '@/checks/mrz/document-reading';
import {
  evenContrast,
  halfTurn,
  levelledMrzBands,
  mrzGrey,
  pgm,
  stretchContrast,
  type GreyImage,
} from '@/checks/mrz/mrz-band';
import { GLYPH_MIN_SCORE, glyphsOfBand, readMrzGlyphs } from '@/checks/mrz/mrz-glyphs';
import { readMrzBandsWith, type MrzModel } from '@/checks/mrz/mrz-read';

/**
 * The machine-readable zone read in the browser as the service reads it (`src/checks/mrz/node/mrz.ts`):
 * on the same bands of the photo (`@/checks/mrz/mrz-band`), in the same order (`@/checks/mrz/mrz-read`):
 * the glyph reader (`@/checks/mrz/mrz-glyphs`), then tesseract.js with the same MRZ-trained model
 * (`src/checks/mrz/node/tesseract-mrz`, 1.3 MB), and the English LSTM data (`@tesseract.js-data/eng`,
 * 4.0.0_best_int, 2.9 MB) only for a band that model does not read valid; same parameters and page
 * mode; parsed by `mrz` with its check digits through `@/checks/mrz/document-reading`. The OCR's worker
 * script, wasm core and models are files of the app (vite.config.ts serves them): nothing comes
 * from a CDN, and each is fetched only when a band needs it.
 */

const loading = new Map<MrzModel, Promise<Worker>>();
const asset = (path: string) => new URL(`/models/tesseract/${path}`, location.href).href;

function ocrWorker(model: MrzModel): Promise<Worker> {
  const loaded = loading.get(model);
  if (loaded) return loaded;
  const starting = (async () => {
    const worker = await createWorker(model, OEM.LSTM_ONLY, {
      workerPath: asset('worker.min.js'),
      // A folder: tesseract.js picks the relaxed-SIMD, SIMD or plain LSTM build the browser runs.
      corePath: asset('core'),
      langPath: asset(model),
      gzip: true,
      cacheMethod: 'none',
      // The worker is a file of the app (worker-src 'self'), not a blob made from a fetched script.
      workerBlobURL: false,
    });
    await worker.setParameters({ ...MRZ_OCR_PARAMETERS, tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return worker;
  })();
  loading.set(model, starting);
  starting.catch(() => loading.delete(model));
  return starting;
}

/** Starts loading the OCR ahead of a reading (the benchmark times readings with the OCR loaded). */
export const preloadMrzCheck = () => ocrWorker('mrz').then(() => undefined);

const isState = (code: string) => Object.hasOwn(states, code);

async function ocrText(image: GreyImage, model: MrzModel) {
  const worker = await ocrWorker(model);
  return (await worker.recognize(new Blob([pgm(image)], { type: 'image/x-portable-graymap' }))).data.text;
}

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
 * Reads and parses the MRZ of a document photo: the bands `levelledMrzBands` finds, lowest first, each
 * read alone; none found is no MRZ, without running the OCR. As in the service, a band whose glyphs
 * the glyph reader is sure of and whose check digits hold needs no OCR.
 */
export async function readMrz(image: Blob): Promise<MrzCheck> {
  const start = performance.now();
  const { grey, width, height } = await greyPixels(image);
  // Only a band the glyph reader did not read alone fetches and starts the OCR.
  const bands = levelledMrzBands(grey, width, height).map((pixels) => {
    const turned = halfTurn(pixels);
    const glyphs = glyphsOfBand(pixels, turned, parse, isState);
    // The evened band only where the OCR will run (a band the glyph reader read needs none).
    const evened = glyphs.byGlyphs ? undefined : evenContrast(pixels);
    return { image: pixels, turned, ...(evened ? { evened } : {}), ...glyphs };
  });
  const read: MrzRead = await readMrzBandsWith(bands, { ocr: ocrText, parse, isState });
  return { read, readMs: performance.now() - start };
}

/**
 * Whether a camera frame shows the zone well enough to read: a band of MRZ lines whose every glyph
 * the glyph reader recognises (`GLYPH_MIN_SCORE`). For the live camera's hint, a few times a second:
 * no OCR, so nothing heavy is fetched or run while the person frames the document.
 */
export async function mrzInView(image: Blob): Promise<boolean> {
  const { grey, width, height } = await greyPixels(image);
  return levelledMrzBands(grey, width, height, { quarterTurns: false }).some(
    (pixels) => (readMrzGlyphs(pixels)?.minScore ?? 0) >= GLYPH_MIN_SCORE,
  );
}
