import { createRequire } from 'node:module';
import { MRZ_OCR_WIDTH } from '@/checks/mrz/document-reading';
import {
  outlineOf,
  quadShares,
  straighten,
  straightenedSize,
  type OpenCv,
  type OutlineVerdict,
} from '@/checks/document/document-outline';

/** RGBA pixels, row by row. */
export interface RgbaPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DocumentFound {
  verdict: OutlineVerdict['kind'];
  /** Long side / short side of the framed document. */
  aspect?: number;
  /** Characters in lines of print (`lookForOutline`'s textChars). */
  textChars: number;
  /** The framed document's corners, as shares of the photo's width and height (any decode size). */
  quad?: { x: number; y: number }[];
  /** Card-shaped quads of any size from CARD_MIN_AREA_SHARE, as shares (`OutlineLook.cards`). */
  cards?: { x: number; y: number }[][];
  /** The document straightened (perspective warp), at the decode's resolution: barcode and portrait. */
  crop?: RgbaPixels;
  /** The same, MRZ_OCR_WIDTH wide: the MRZ band finder reads it as it is. */
  mrzCrop?: RgbaPixels;
  ms: number;
}

let openCv: Promise<OpenCv> | undefined;

/**
 * OpenCV (opencv-wasm: the 4.3 build, 6.9 MB of wasm read from node_modules beside its script,
 * hence require and not a bundled import), ready once its wasm is compiled (each image worker
 * starts it when it starts). Emscripten's module is a thenable that calls back with itself, so a
 * promise resolved with it would never settle: its `then` goes once its runtime is up.
 */
export function openCvReady(): Promise<OpenCv> {
  openCv ??= new Promise((resolve) => {
    const cv = (createRequire(import.meta.url)('opencv-wasm') as { cv: OpenCv }).cv;
    const ready = () => {
      delete cv.then;
      resolve(cv);
    };
    if (cv.Mat) ready();
    else cv.onRuntimeInitialized = ready;
  });
  return openCv;
}

/**
 * Finds the document in a decode (the shared rules of `@/checks/document/document-outline`) and, when its
 * four corners are in the photo, straightens it: once at its own size for the barcode and the
 * portrait, once MRZ_OCR_WIDTH wide for the MRZ (kept the way it was photographed: which way an
 * upright card is turned cannot be told here). Memory: at most two crops of the decode's size.
 */
export async function findDocument(
  image: RgbaPixels,
  want: { crop?: boolean; mrzCrop?: boolean } = { crop: true, mrzCrop: true },
): Promise<DocumentFound> {
  const cv = await openCvReady();
  const started = performance.now();
  const { verdict, scale: back, textChars, cards } = outlineOf(cv, { ...image, channels: 4 });
  const found: DocumentFound = { verdict: verdict.kind, textChars, ms: 0 };
  if (cards.length > 0) found.cards = cards;
  if (verdict.kind === 'framed') {
    found.aspect = Math.round(verdict.aspect * 1000) / 1000;
    const quad = verdict.quad.map((p) => ({ x: p.x * back, y: p.y * back }));
    found.quad = quadShares(quad, image);
    const { width, height } = straightenedSize(quad, image);
    if (want.crop) found.crop = straighten(cv, image, quad, width, height);
    if (want.mrzCrop)
      found.mrzCrop = straighten(
        cv,
        image,
        quad,
        MRZ_OCR_WIDTH,
        Math.round((MRZ_OCR_WIDTH * height) / width),
      );
  }
  found.ms = Math.round((performance.now() - started) * 10) / 10;
  return found;
}
