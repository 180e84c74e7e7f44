/// <reference lib="webworker" />
// The document finder of the browser (`@/shared/document-outline`, the rules the service applies),
// off the page's thread: OpenCV (opencv-wasm: 400 kB of JavaScript bundled here, 6.9 MB of wasm,
// 1.35 MB brotli, a file of the app) loads on the first document photo or camera look.
import wasmUrl from 'opencv-wasm/opencv.wasm?url';
import { outlineOf, type OpenCv, type OutlineVerdict } from '@/shared/document-outline';

export interface DocumentRequest {
  id: number;
  /** A file, or a camera frame (transferred). */
  source: Blob | ImageBitmap;
}

/** null: the photo could not be looked at (the service judges it then). */
export interface DocumentAnswer {
  id: number;
  verdict: OutlineVerdict | null;
  ms?: number;
}

/** Long side the photo is decoded at: the look box-filters to 512 anyway. */
const DECODE_LONG_SIDE = 1024;

let openCv: Promise<OpenCv> | undefined;

function loadOpenCv(): Promise<OpenCv> {
  openCv ??= (async () => {
    // The build reads `./opencv.wasm` beside the script (a synchronous XMLHttpRequest in a worker)
    // with no way to pass its location: the request is pointed at the app's own copy of the file.
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (
      this: XMLHttpRequest,
      method: string,
      url: string | URL,
      ...rest: unknown[]
    ) {
      const target = String(url).endsWith('/opencv.wasm') ? new URL(wasmUrl, self.location.href).href : url;
      return (open as (...args: unknown[]) => void).call(this, method, target, ...rest);
    } as typeof open;
    const cv = ((await import('opencv-wasm/opencv.js')) as { default: OpenCv }).default;
    // Emscripten's module is a thenable whose then calls back with itself: awaiting it would loop.
    await new Promise<void>((resolve) => cv.then(() => resolve()));
    return cv;
  })();
  return openCv;
}

async function look(source: Blob | ImageBitmap): Promise<OutlineVerdict> {
  const cv = await loadOpenCv();
  const bitmap = source instanceof Blob ? await createImageBitmap(source) : source;
  const scale = Math.min(1, DECODE_LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const { data } = context.getImageData(0, 0, width, height);
  return outlineOf(cv, { data, width, height, channels: 4 }).verdict;
}

self.addEventListener('message', (event: MessageEvent<DocumentRequest>) => {
  const { id, source } = event.data;
  const started = performance.now();
  look(source).then(
    (verdict) => self.postMessage({ id, verdict, ms: performance.now() - started } satisfies DocumentAnswer),
    () => self.postMessage({ id, verdict: null } satisfies DocumentAnswer),
  );
});
