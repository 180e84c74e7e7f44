/// <reference lib="webworker" />
// The document finder of the browser (`@/checks/document/document-outline`, the rules the service applies),
// off the page's thread. OpenCV (`opencv-wasm`: its JavaScript bundled here without string
// evaluation by src/build/opencv-without-eval.ts, its wasm a file of the app) loads on the first
// document photo, never on a first screen.
import openCvFactory from 'opencv-wasm/opencv.js';
import wasmUrl from 'opencv-wasm/opencv.wasm?url';
import type { LiveLook } from '../capture/document-guide';
import {
  OUTLINE_LONG_SIDE,
  outlineOf,
  quadShares,
  straighten,
  straightenedSize,
  type OpenCv,
  type OutlineVerdict,
  type Point,
} from '@/checks/document/document-outline';
import { isCovered, lookForCover } from '@/checks/document/occlusion';
import { isScreenPhoto, lookForScreen } from '@/checks/document/screen-photo';
import { documentGlareShare, laplacianVariance, toGray } from '@/checks/image/image-metrics';

export interface DocumentRequest {
  id: number;
  /** A file, or a camera frame (transferred). */
  source: Blob | ImageBitmap | VideoFrame;
  /** A live camera frame: looked at OUTLINE_LONG_SIDE long, blur and glare measured too. */
  live?: boolean;
  /** A photo: a framed document's corners and its straightened crop come back too (the portrait's). */
  straighten?: boolean;
}

/** null: the photo could not be looked at (the service judges it then). */
export interface DocumentAnswer {
  id: number;
  verdict: OutlineVerdict | null;
  /** The look's own time (decode excluded); for a live frame, the whole of it (drawing included). */
  ms?: number;
  /** For a live frame: the look the camera's guide advises on. */
  live?: LiveLook;
  /** A framed document's corners as shares of the photo's sides, as the service records them. */
  quad?: Point[];
  /** The framed document straightened at the decode's resolution (transferred). */
  crop?: ImageBitmap;
  /** Something reaches over the document from beyond it (`@/checks/document/occlusion`). */
  covered?: boolean;
  /** For a photo: a screen's colour ripples over it (`@/checks/document/screen-photo`). */
  screen?: boolean;
  /** For a photo: characters in lines of print (`selfieShowsDocument`). */
  textChars?: number;
  /** For a photo: card-shaped quads of any size, as shares of its sides (`selfieShowsDocument`). */
  cards?: Point[][];
}

/** Long side the photo is decoded at: the look box-filters to 512 anyway. */
const DECODE_LONG_SIDE = 1024;
/**
 * Long side a photo is drawn at for the screen look: the size the wizard sends, which the rule
 * box-filters to its own 1024 as the service does. A canvas scaling straight to 1024 would resample
 * the screen's fine ripples its own way (or alias new ones).
 */
const SCREEN_DRAW_LONG_SIDE = 2048;

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

/** The bitmap's pixels at SCREEN_DRAW_LONG_SIDE at most. */
function drawn(bitmap: ImageBitmap | VideoFrame, fullWidth: number, fullHeight: number) {
  const scale = Math.min(1, SCREEN_DRAW_LONG_SIDE / Math.max(fullWidth, fullHeight));
  const width = Math.max(1, Math.round(fullWidth * scale));
  const height = Math.max(1, Math.round(fullHeight * scale));
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  return { data: context.getImageData(0, 0, width, height).data, width, height, channels: 4 };
}

async function look(
  source: Blob | ImageBitmap | VideoFrame,
  live: boolean,
  straightened = false,
): Promise<Omit<DocumentAnswer, 'id'>> {
  const cv = await loadOpenCv();
  const began = performance.now();
  const bitmap = source instanceof Blob ? await createImageBitmap(source) : source;
  const [fullWidth, fullHeight] =
    'displayWidth' in bitmap ? [bitmap.displayWidth, bitmap.displayHeight] : [bitmap.width, bitmap.height];
  // A photo no larger than the look's decode is drawn once: the screen look takes the same pixels.
  const drawnApart = !live && Math.max(fullWidth, fullHeight) > DECODE_LONG_SIDE;
  const apart = drawnApart ? isScreenPhoto(lookForScreen(drawn(bitmap, fullWidth, fullHeight))) : undefined;
  // A live frame is looked at on the outline's own pixels, which blur and glare are measured on too.
  const longSide = live ? OUTLINE_LONG_SIDE : DECODE_LONG_SIDE;
  const scale = Math.min(1, longSide / Math.max(fullWidth, fullHeight));
  const width = Math.max(1, Math.round(fullWidth * scale));
  const height = Math.max(1, Math.round(fullHeight * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const image = context.getImageData(0, 0, width, height);
  const started = performance.now();
  const pixels = { data: image.data, width, height, channels: 4 };
  const { verdict, scale: back, textChars, cards } = outlineOf(cv, pixels);
  // The cover rule box-filters to its own 256 px: a live frame (512) and a photo (1024) alike.
  const covered = isCovered(lookForCover(pixels), textChars);
  const screen = live ? undefined : (apart ?? isScreenPhoto(lookForScreen(pixels)));
  if (!live) {
    const ms = performance.now() - started;
    if (verdict.kind !== 'framed') return { verdict, ms, textChars, cards, covered, screen };
    const quad = verdict.quad.map((p) => ({ x: p.x * back, y: p.y * back }));
    if (!straightened)
      return { verdict, ms, textChars, cards, covered, screen, quad: quadShares(quad, image) };
    // The service's crop (src/checks/document/node/document-finder.ts): the same warp on its decode.
    const size = straightenedSize(quad, image);
    const warped = straighten(cv, image, quad, size.width, size.height);
    const crop = await createImageBitmap(
      new ImageData(new Uint8ClampedArray(warped.data.buffer), warped.width, warped.height),
    );
    return { verdict, ms, textChars, quad: quadShares(quad, image), crop, covered, screen };
  }
  const grey = toGray(image.data, 4);
  // Glare on the document: the framed quad, or the card shape a document too far to frame makes.
  const quad =
    verdict.kind === 'framed'
      ? verdict.quad
      : verdict.kind === 'cropped'
        ? null
        : (cards[0]?.map((p) => ({ x: p.x * width, y: p.y * height })) ?? null);
  const glare = quad ? documentGlareShare(grey, width, height, quad) : 0;
  const blurScore = laplacianVariance(grey, width, height);
  return {
    verdict,
    ms: performance.now() - began,
    live: { verdict, width, height, blurScore, glareShare: glare, covered, cards },
  };
}

self.addEventListener('message', (event: MessageEvent<DocumentRequest>) => {
  const { id, source, live = false, straighten: straightened = false } = event.data;
  look(source, live, straightened).then(
    (answer) =>
      self.postMessage({ id, ...answer } satisfies DocumentAnswer, answer.crop ? [answer.crop] : []),
    () => self.postMessage({ id, verdict: null } satisfies DocumentAnswer),
  );
});
