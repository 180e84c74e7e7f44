/// <reference lib="webworker" />
// The document finder of the browser (`@/shared/document-outline`, the rules the service applies),
// off the page's thread. OpenCV (`opencv-wasm`: its JavaScript bundled here without string
// evaluation by src/build/opencv-without-eval.ts, its wasm a file of the app) loads on the first
// document photo, never on a first screen.
import openCvFactory from 'opencv-wasm/opencv.js';
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
  /** The look's own time (decode excluded). */
  ms?: number;
}

/** Long side the photo is decoded at: the look box-filters to 512 anyway. */
const DECODE_LONG_SIDE = 1024;

let openCv: Promise<OpenCv> | undefined;

function loadOpenCv(): Promise<OpenCv> {
  openCv ??= (async () => {
    const compiled = await WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
    // This Emscripten build binds the wasm's exports while it loads, so the instance is made at
    // once from the module compiled above (allowed in a worker), never read by a synchronous
    // request. The settings object becomes the module, complete when the call returns.
    const cv: OpenCv = {
      instantiateWasm(
        imports: WebAssembly.Imports,
        receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
      ) {
        const instance = new WebAssembly.Instance(compiled, imports);
        receive(instance, compiled);
        return instance.exports;
      },
    };
    (openCvFactory as unknown as (settings: OpenCv) => unknown)(cv);
    // Emscripten's module is a thenable that calls back with itself: a promise would never settle.
    delete cv.then;
    return cv;
  })();
  return openCv;
}

async function look(source: Blob | ImageBitmap): Promise<{ verdict: OutlineVerdict; ms: number }> {
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
  const started = performance.now();
  const { verdict } = outlineOf(cv, { data, width, height, channels: 4 });
  return { verdict, ms: performance.now() - started };
}

self.addEventListener('message', (event: MessageEvent<DocumentRequest>) => {
  const { id, source } = event.data;
  look(source).then(
    ({ verdict, ms }) => self.postMessage({ id, verdict, ms } satisfies DocumentAnswer),
    () => self.postMessage({ id, verdict: null } satisfies DocumentAnswer),
  );
});
