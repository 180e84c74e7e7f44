import { Human } from '@vladmandic/human';
import {
  FACE_INPUT_LONG_SIDE,
  faceGuide,
  faceUseConfig,
  FACE_USE_MODELS,
  humanConfig,
  judgeFaces,
  selfieVerdict,
  type DetectedFace,
  type FaceGuide,
  type FaceUse,
  type SelfieFaceVerdict,
} from '@/checks/face/face-rules';
import { measureFaceCover, type FaceCover } from '@/checks/face/face-cover';
import { insideQuad, type Point } from '@/checks/document/document-outline';
import type { ShareBox } from '@/checks/document/selfie-document';
import { headYaw, type ChallengeFrame } from '@/checks/video/liveness-challenge';

/**
 * The face detection itself, run by the face worker (face-worker.ts) or, where workers or
 * OffscreenCanvas are missing, on the page (check-faces.ts): Human with the service's
 * configuration (`@/checks/face/face-rules`) and the three models the browser needs (blazeface,
 * facemesh, iris; no descriptor), loaded once per thread, the iris model only for a selfie.
 */

/** Where the models and TensorFlow.js's wasm files are served (absolute URLs). */
export interface FaceModelPaths {
  modelBasePath: string;
  wasmPath: string;
}

// One detection at a time: the camera's guide may still be looking at a frame when the shot is
// checked, and Human keeps per-call state. The input is drawn in turn too: the live frames share
// one canvas. Adding the iris model waits its turn as well: it switches iris on in Human's
// configuration, which a detection already under way reads.
let queue: Promise<unknown> = Promise.resolve();
function inTurn<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job);
  queue = run.catch(() => undefined);
  return run;
}

let loading: Promise<Human> | undefined;
let irisLoading: Promise<Human> | undefined;

// Human logs a model it could not fetch and goes on, and a detection without it never answers:
// a check that cannot run must say so, so that the service judges the photo instead.
function everyModelLoaded(human: Human): Human {
  if (human.models.list().some((model) => model.url && !model.size))
    throw new Error('a face model did not load');
  return human;
}

/**
 * Human with the models `use` needs. The iris model (2.6 MB, the largest) is for eye openness only:
 * a document's portrait count (`count`) never fetches it, and the first selfie or camera look adds
 * it to the Human already loaded.
 */
export function loadHuman(paths: FaceModelPaths, use: FaceUse = 'selfie'): Promise<Human> {
  loading ??= (async () => {
    const config = humanConfig(paths);
    const human = new Human({
      ...config,
      face: { ...config.face, iris: { ...config.face.iris, enabled: false } },
    } as ConstructorParameters<typeof Human>[0]);
    await human.load();
    return everyModelLoaded(human);
  })();
  const base = loading;
  base.catch(() => {
    if (loading === base) loading = undefined;
  });
  if (!FACE_USE_MODELS[use].iris) return base;
  irisLoading ??= base.then((human) =>
    inTurn(async () => {
      await human.load({ face: { iris: { enabled: true } } } as Parameters<Human['load']>[0]);
      return everyModelLoaded(human);
    }),
  );
  const withIris = irisLoading;
  withIris.catch(() => {
    if (irisLoading === withIris) irisLoading = undefined;
  });
  return withIris;
}

/** The TensorFlow.js backend Human runs on, and the wasm build (the benchmark prints it). */
export function backendOf(human: Human): string {
  const { simd, multithread } = human.env.wasm;
  const backend = human.tf.getBackend() as string;
  return backend === 'wasm' ? `wasm${simd ? ' SIMD' : ''}${multithread ? ' threads' : ''}` : backend;
}

// Each call names its models: Human merges a call's configuration into its own, so a document's
// count (no iris) would otherwise leave the next selfie without eye openness. A selfie's judgement
// (the cover measures need the drawn pixels, which the next look redraws) is made in the same turn.
function detectOne(human: Human, draw: () => Canvas, use: FaceUse = 'selfie') {
  return inTurn(async () => {
    const start = performance.now();
    const input = draw();
    const drawnAt = performance.now();
    const result = await human.detect(input, faceUseConfig(use) as Parameters<Human['detect']>[1]);
    let judgement = judgeFaces(detectedOf(result), input.width, input.height);
    if (use === 'selfie') {
      const cover = coverOf(input, judgement.faces[0]);
      if (cover) judgement = { ...judgement, cover };
    }
    const end = performance.now();
    return {
      result,
      judgement,
      width: input.width,
      height: input.height,
      detectMs: end - drawnAt,
      totalMs: end - start,
    };
  });
}

/**
 * The cover measures of a face (`@/checks/face/face-cover`) from the canvas it was detected on:
 * only the face's box and a margin are read back (the forehead and the cheeks lie within it).
 */
function coverOf(canvas: Canvas, face: DetectedFace | undefined): FaceCover | undefined {
  if (!face) return undefined;
  const [x, y, w, h] = face.box;
  const margin = 0.15 * Math.max(w, h);
  const left = Math.max(0, Math.floor(x - margin));
  const top = Math.max(0, Math.floor(y - margin));
  const right = Math.min(canvas.width, Math.ceil(x + w + margin));
  const bottom = Math.min(canvas.height, Math.ceil(y + h + margin));
  if (right <= left || bottom <= top) return undefined;
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  const { data, width, height } = context.getImageData(left, top, right - left, bottom - top);
  return measureFaceCover({ data, width, height, channels: 4, left, top }, face.mesh);
}

type Canvas = OffscreenCanvas | HTMLCanvasElement;

/** A canvas of `size` (OffscreenCanvas in a worker, or on a page that has it; reused when given). */
function canvasOf(width: number, height: number, reuse?: Canvas): Canvas {
  const canvas =
    reuse ??
    (typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(width, height)
      : document.createElement('canvas'));
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/** The source drawn shrunk to `longSide` at most. */
function drawn(
  source: CanvasImageSource,
  size: { width: number; height: number },
  longSide: number,
  reuse?: Canvas,
) {
  const scale = Math.min(1, longSide / Math.max(size.width, size.height));
  const canvas = canvasOf(Math.round(size.width * scale), Math.round(size.height * scale), reuse);
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

const detectedOf = (result: Awaited<ReturnType<Human['detect']>>): DetectedFace[] =>
  result.face.map((f) => ({
    box: f.box,
    score: f.boxScore ?? f.score,
    mesh: f.mesh as DetectedFace['mesh'],
  }));

/**
 * Frames of the live camera are judged at this long side: the detector works at 256 px anyway,
 * and a smaller copy keeps each look short.
 */
export const GUIDE_FRAME_LONG_SIDE = 480;
let frameCanvas: Canvas | undefined;

/** The guide's look at one frame, and how long it took (shrinking and detection). */
export interface FaceLook {
  guide: FaceGuide;
  /** What the liveness challenge reads of the frame (face count, head yaw, eye openness). */
  reading: ChallengeFrame;
  lookMs: number;
}

/** What the live camera's guide says about the faces in `frame` (`size`: its pixel size). */
export async function lookAtFrame(
  human: Human,
  frame: CanvasImageSource,
  size: { width: number; height: number },
): Promise<FaceLook> {
  const { judgement, width, height, totalMs } = await detectOne(
    human,
    () => (frameCanvas = drawn(frame, size, GUIDE_FRAME_LONG_SIDE, frameCanvas)),
  );
  const guide = faceGuide(judgement, width, height);
  const [first] = judgement.faces;
  const yaw = first ? headYaw(first.mesh) : undefined;
  const reading: ChallengeFrame = {
    faces: judgement.faces.length,
    ...(yaw !== undefined ? { yaw } : {}),
    ...(judgement.eyeOpenness !== undefined ? { eyeOpenness: judgement.eyeOpenness } : {}),
  };
  return { guide, reading, lookMs: totalMs };
}

export interface SelfieFaces {
  verdict: SelfieFaceVerdict;
  faces: number;
  /** The judged face's eye openness, when measured (the same figure from the worker and the page). */
  eyeOpenness?: number;
  /** Time of the detection itself, models loaded (for the benchmark). */
  detectMs: number;
  /** The largest face's box as shares of the photo's width and height (`selfieShowsDocument`). */
  face?: ShareBox;
}

/** Detects faces on a selfie (orientation from the file, long side 1024) and judges them as the service will. */
export async function judgeSelfie(human: Human, image: Blob): Promise<SelfieFaces> {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const { judgement, detectMs, width, height } = await detectOne(human, () => {
    try {
      return drawn(bitmap, bitmap, FACE_INPUT_LONG_SIDE);
    } finally {
      bitmap.close();
    }
  });
  const { faces, eyeOpenness } = judgement;
  const verdict = selfieVerdict(judgement);
  const [first] = faces;
  const face = first && {
    x: first.box[0] / width,
    y: first.box[1] / height,
    w: first.box[2] / width,
    h: first.box[3] / height,
  };
  return {
    verdict,
    faces: faces.length,
    ...(eyeOpenness === undefined ? {} : { eyeOpenness }),
    detectMs,
    ...(face ? { face } : {}),
  };
}

/**
 * Faces of a document photo that count as its portrait, as the service counts them
 * (src/service/checks/face-checks.ts, `documentFaces`): detector and facemesh (the `count` use) at
 * long side 1024, only faces whose centre lies on the found document (`quad`, corners as shares of
 * the photo's sides); none there, the document straightened (`crop`), where a portrait far in the
 * frame is larger. With `minScore` (a claimed back's, BACK_PORTRAIT_MIN_SCORE), only sure faces on
 * the whole photo, as the service looks at a back.
 */
export async function countDocumentFaces(
  human: Human,
  image: Blob,
  quad?: Point[],
  crop?: ImageBitmap,
  minScore = 0,
): Promise<{ faces: number; detectMs: number }> {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const whole = await detectOne(
    human,
    () => {
      try {
        return drawn(bitmap, bitmap, FACE_INPUT_LONG_SIDE);
      } finally {
        bitmap.close();
      }
    },
    'count',
  );
  const onDocument = judgeFaces(detectedOf(whole.result), whole.width, whole.height).faces.filter(
    ({ box: [x, y, w, h], score }) =>
      score >= minScore &&
      (!quad || insideQuad({ x: (x + w / 2) / whole.width, y: (y + h / 2) / whole.height }, quad)),
  );
  if (onDocument.length > 0 || !crop) {
    crop?.close();
    return { faces: onDocument.length, detectMs: whole.detectMs };
  }
  const straight = await detectOne(
    human,
    () => {
      try {
        return drawn(crop, crop, FACE_INPUT_LONG_SIDE);
      } finally {
        crop.close();
      }
    },
    'count',
  );
  return {
    faces: judgeFaces(detectedOf(straight.result), straight.width, straight.height).faces.length,
    detectMs: whole.detectMs + straight.detectMs,
  };
}
