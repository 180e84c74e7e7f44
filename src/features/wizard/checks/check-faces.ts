import type { Human } from '@vladmandic/human';
import {
  FACE_INPUT_LONG_SIDE,
  faceGuide,
  humanConfig,
  judgeFaces,
  selfieVerdict,
  type DetectedFace,
  type FaceGuide,
} from '@/shared/face-rules';
import type { ClientCheckCode } from './check-codes';

/**
 * The selfie's face check in the browser, with the service's rules (`@/shared/face-rules`): exactly
 * one face, eyes open. Human (its ES bundle carries TensorFlow.js) and the three models it needs
 * here (blazeface, facemesh, iris: 4.6 MB, no descriptor model) load on the first selfie only;
 * vite.config.ts serves the model and wasm files from node_modules.
 */

let loading: Promise<Human> | undefined;

function loadHuman(): Promise<Human> {
  loading ??= (async () => {
    const { Human: HumanClass } = await import('@vladmandic/human');
    const config = humanConfig({
      modelBasePath: new URL('/models/human/', location.href).href,
      wasmPath: new URL('/models/tfjs/', location.href).href,
      descriptor: false,
    });
    const human = new HumanClass(config as ConstructorParameters<typeof HumanClass>[0]);
    await human.load();
    return human;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

// One detection at a time: the camera's guide may still be looking at a frame when the shot is
// checked, and Human keeps per-call state.
let queue: Promise<unknown> = Promise.resolve();
function detectOne(human: Human, input: HTMLCanvasElement) {
  const run = queue.then(() => human.detect(input));
  queue = run.catch(() => undefined);
  return run;
}

/** Starts loading the face check ahead of the selfie (the step that needs it calls this). */
export const preloadFaceCheck = () => loadHuman().then(() => undefined);

/** A canvas of the source shrunk to `longSide` at most (a reused canvas for the live frames). */
function drawn(
  source: CanvasImageSource,
  size: { width: number; height: number },
  longSide: number,
  canvas = document.createElement('canvas'),
) {
  const scale = Math.min(1, longSide / Math.max(size.width, size.height));
  canvas.width = Math.round(size.width * scale);
  canvas.height = Math.round(size.height * scale);
  canvas.getContext('2d')!.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

async function pixels(image: Blob) {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const canvas = drawn(bitmap, bitmap, FACE_INPUT_LONG_SIDE);
  bitmap.close();
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
 * and a smaller copy keeps each look at the frame short on the page's thread.
 */
export const GUIDE_FRAME_LONG_SIDE = 480;
let frameCanvas: HTMLCanvasElement | undefined;

/** What the live camera's guide says about the faces in the current frame of `video` (or a canvas). */
export async function guideFrame(video: HTMLVideoElement | HTMLCanvasElement): Promise<FaceGuide> {
  const human = await loadHuman();
  frameCanvas ??= document.createElement('canvas');
  const size =
    video instanceof HTMLVideoElement
      ? { width: video.videoWidth, height: video.videoHeight }
      : { width: video.width, height: video.height };
  const canvas = drawn(video, size, GUIDE_FRAME_LONG_SIDE, frameCanvas);
  const judgement = judgeFaces(detectedOf(await detectOne(human, canvas)), canvas.width, canvas.height);
  return faceGuide(judgement, canvas.width, canvas.height);
}

export interface SelfieFaceCheck {
  problem: ClientCheckCode | null;
  faces: number;
  /** Time of the detection itself, models loaded (for the benchmark). */
  detectMs: number;
}

const codeOf = {
  noFace: 'client.noFace',
  multipleFaces: 'client.multipleFaces',
  closedEyes: 'client.closedEyes',
} as const satisfies Record<string, ClientCheckCode>;

/** Detects faces on a selfie and judges them as the service will. */
export async function checkSelfieFace(image: Blob): Promise<SelfieFaceCheck> {
  const human = await loadHuman();
  const canvas = await pixels(image);
  await queue;
  const start = performance.now();
  const result = await detectOne(human, canvas);
  const detectMs = performance.now() - start;
  const detected = detectedOf(result);
  const judgement = judgeFaces(detected, canvas.width, canvas.height);
  const verdict = selfieVerdict(judgement);
  return { problem: verdict ? codeOf[verdict] : null, faces: judgement.faces.length, detectMs };
}
