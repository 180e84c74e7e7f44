import { parse } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  MRZ_ALPHABET,
  MRZ_BOTTOM_SHARE,
  MRZ_OCR_WIDTH,
  mrzLines,
  parseMrzLines,
  type MrzRead,
} from '@/shared/document-reading';

/**
 * The machine-readable zone read in the browser as the service reads it (`src/service/checks/mrz.ts`):
 * tesseract.js with the same English LSTM data (`@tesseract.js-data/eng`, 4.0.0_best_int), the
 * same alphabet and page mode, the bottom of the photo first and then the whole of it, parsed by
 * `mrz` with its check digits through `@/shared/document-reading`. Its worker script, wasm core
 * and language data are files of the app (vite.config.ts serves them from node_modules): nothing
 * comes from a CDN. Loaded by the document step that requires an MRZ, on its first photo.
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
    await worker.setParameters({
      tessedit_char_whitelist: MRZ_ALPHABET,
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    });
    return worker;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Starts loading the OCR ahead of the photo (the step that needs it calls this). */
export const preloadMrzCheck = () => ocrWorker().then(() => undefined);

/**
 * Grey, contrast-stretched (1st to 99th percentile, as sharp's `normalise`) pixels of the photo at
 * the OCR width, whole and its bottom share, as PNG blobs for the OCR.
 */
async function ocrImages(image: Blob): Promise<{ bottom: Blob; whole: Blob }> {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const width = MRZ_OCR_WIDTH;
  const height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const data = context.getImageData(0, 0, width, height);
  const px = data.data;
  const histogram = new Uint32Array(256);
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const y = Math.round(0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2]);
    grey[p] = y;
    histogram[y]++;
  }
  const percentile = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= share * grey.length) return v;
    return 255;
  };
  const low = percentile(0.01);
  const high = Math.max(low + 1, percentile(0.99));
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const v = Math.min(255, Math.max(0, Math.round(((grey[p] - low) * 255) / (high - low))));
    px[i] = px[i + 1] = px[i + 2] = v;
    px[i + 3] = 255;
  }
  context.putImageData(data, 0, 0);
  const top = Math.floor(height * (1 - MRZ_BOTTOM_SHARE));
  const part = document.createElement('canvas');
  part.width = width;
  part.height = height - top;
  part.getContext('2d')!.drawImage(canvas, 0, top, width, height - top, 0, 0, width, height - top);
  const png = (c: HTMLCanvasElement) =>
    new Promise<Blob>((resolve, reject) =>
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'),
    );
  return { bottom: await png(part), whole: await png(canvas) };
}

export interface MrzCheck {
  read: MrzRead;
  /** Time of the OCR and parsing, the OCR loaded (for the benchmark). */
  readMs: number;
}

/** Reads and parses the MRZ of a document photo. */
export async function readMrz(image: Blob): Promise<MrzCheck> {
  const worker = await ocrWorker();
  const start = performance.now();
  const { bottom, whole } = await ocrImages(image);
  let lines = mrzLines((await worker.recognize(bottom)).data.text);
  if (lines.length === 0) lines = mrzLines((await worker.recognize(whole)).data.text);
  const read = parseMrzLines(lines, parse);
  return { read, readMs: performance.now() - start };
}
