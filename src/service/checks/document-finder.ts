import { createRequire } from 'node:module';
import { MRZ_OCR_WIDTH } from '@/shared/document-reading';
import { outlineOf, quadSize, type OpenCv, type OutlineVerdict } from '@/shared/document-outline';

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
  /** The framed document's corners, as shares of the photo's width and height (any decode size). */
  quad?: { x: number; y: number }[];
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

function warp(
  cv: OpenCv,
  image: RgbaPixels,
  quad: { x: number; y: number }[],
  width: number,
  height: number,
) {
  const src = cv.matFromArray(image.height, image.width, cv.CV_8UC4, image.data);
  const from = cv.matFromArray(
    4,
    1,
    cv.CV_32FC2,
    quad.flatMap((p) => [p.x, p.y]),
  );
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width, 0, width, height, 0, height]);
  const matrix = cv.getPerspectiveTransform(from, to);
  const out = new cv.Mat();
  try {
    cv.warpPerspective(src, out, matrix, new cv.Size(width, height), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    // A copy out of the wasm heap, which the next call may reuse.
    return { data: new Uint8Array(out.data as Uint8Array), width, height };
  } finally {
    for (const m of [src, from, to, matrix, out]) m.delete();
  }
}

/**
 * Finds the document in a decode (the shared rules of `@/shared/document-outline`) and, when its
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
  const { verdict, scale: back } = outlineOf(cv, { ...image, channels: 4 });
  const found: DocumentFound = { verdict: verdict.kind, ms: 0 };
  if (verdict.kind === 'framed') {
    found.aspect = Math.round(verdict.aspect * 1000) / 1000;
    const quad = verdict.quad.map((p) => ({ x: p.x * back, y: p.y * back }));
    found.quad = quad.map((p) => ({
      x: Math.round((p.x / image.width) * 1e4) / 1e4,
      y: Math.round((p.y / image.height) * 1e4) / 1e4,
    }));
    let { width, height } = quadSize(quad);
    width = Math.round(Math.min(width, image.width * 1.2));
    height = Math.round(Math.min(height, image.height * 1.2));
    if (want.crop) found.crop = warp(cv, image, quad, width, height);
    if (want.mrzCrop)
      found.mrzCrop = warp(cv, image, quad, MRZ_OCR_WIDTH, Math.round((MRZ_OCR_WIDTH * height) / width));
  }
  found.ms = Math.round((performance.now() - started) * 10) / 10;
  return found;
}
