import type { Point } from '@/checks/document/document-outline';
import type { ShareBox } from '@/checks/document/selfie-document';
import type { ClientCheckCode } from './check-codes';
import type { FaceUse } from '@/checks/face/face-rules';
import type { FaceLook, FaceModelPaths } from '@/checks/face/browser/face-detection';
import type { FaceAnswer, FaceJob, FaceRequest } from './face-worker';

/**
 * The selfie's face check in the browser, with the service's rules (`@/checks/face/face-rules`): exactly
 * one face, eyes open; and the live camera guide's look at a frame. Both run in one face worker
 * (face-worker.ts, a file of the app), which loads Human (its ES bundle carries TensorFlow.js) and
 * the three models it needs here (blazeface, facemesh, iris: 4.6 MB, no descriptor model) once:
 * a document's portrait count loads the first two, the first selfie or camera look adds iris (2.6
 * MB); vite.config.ts serves the model and wasm files from
 * node_modules. Where workers or OffscreenCanvas are missing, the same code
 * (face-detection.ts) runs on the page.
 */

// Only types come from face-detection.ts above: Human reaches the page only where it runs there.
const paths = (): FaceModelPaths => ({
  modelBasePath: new URL('/models/human/', location.href).href,
  wasmPath: new URL('/models/tfjs/', location.href).href,
});

/** undefined: not started yet; null: none (missing features, or it failed to start). */
let worker: Worker | null | undefined;
let nextId = 0;
// undefined: the worker died before answering (the page takes over).
const pending = new Map<number, (answer: FaceAnswer | undefined) => void>();

function faceWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return (worker = null);
  const started = new Worker(new URL('./face-worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<FaceAnswer>) => {
    pending.get(event.data.id)?.(event.data);
    pending.delete(event.data.id);
  });
  started.addEventListener('error', () => {
    // A worker that cannot start (blocked by policy, no module workers): the page does the work.
    worker = null;
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve(undefined);
    }
  });
  return (worker = started);
}

/** The worker's answer; undefined when there is none to ask or it could not take the request. */
function ask(request: FaceJob, transfer: Transferable[] = []): Promise<FaceAnswer | undefined> {
  const target = faceWorker();
  if (!target) return Promise.resolve(undefined);
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    try {
      target.postMessage({ id, paths: paths(), ...request } satisfies FaceRequest, transfer);
    } catch {
      pending.delete(id);
      resolve(undefined);
    }
  });
}

/** The same detection on the page's thread (Human loaded here). */
async function onPage(use: FaceUse = 'selfie') {
  const detection = await import('@/checks/face/browser/face-detection');
  return { detection, human: await detection.loadHuman(paths(), use) };
}

const failed = () => new Error('the face detection failed');

/** Starts loading the face check ahead of the selfie; says where it runs and on which backend. */
export async function preloadFaceCheck(): Promise<{ backend: string; thread: 'worker' | 'page' }> {
  const reply = await ask({ kind: 'load' });
  if (reply && !reply.ok) throw failed();
  if (reply && 'backend' in reply) return { backend: reply.backend, thread: 'worker' };
  const { detection, human } = await onPage();
  return { backend: detection.backendOf(human), thread: 'page' };
}

// Set once a browser refuses to transfer a VideoFrame to a worker: ImageBitmaps from then on.
let framesTransfer = typeof VideoFrame === 'function';

/**
 * The frame in the form the worker draws exactly as the page would draw the source (measured in
 * Chromium): a video's VideoFrame (it shares the video's pixels, no copy on the page), a canvas's
 * ImageBitmap (a canvas's VideoFrame is resampled differently when shrunk).
 */
async function frameOf(source: HTMLVideoElement | HTMLCanvasElement): Promise<ImageBitmap | VideoFrame> {
  return framesTransfer && source instanceof HTMLVideoElement
    ? new VideoFrame(source)
    : createImageBitmap(source);
}

/**
 * What the live camera's guide says about the faces in the current frame of `source` (a video, or
 * a canvas), and how long the look took where it ran. The frame is handed to the face worker,
 * which shrinks it (GUIDE_FRAME_LONG_SIDE) and detects there.
 */
export async function guideFrame(source: HTMLVideoElement | HTMLCanvasElement): Promise<FaceLook> {
  if (faceWorker()) {
    const frame = await frameOf(source);
    const reply = await ask({ kind: 'guide', frame }, [frame]);
    if (reply && !reply.ok) throw failed();
    if (reply && 'look' in reply) return reply.look;
    // Not transferred (the worker is gone, or could not take a VideoFrame): ours to close.
    frame.close();
    if (!(frame instanceof ImageBitmap) && faceWorker()) {
      framesTransfer = false;
      return guideFrame(source);
    }
  }
  const { detection, human } = await onPage();
  const size =
    source instanceof HTMLVideoElement
      ? { width: source.videoWidth, height: source.videoHeight }
      : { width: source.width, height: source.height };
  return detection.lookAtFrame(human, source, size);
}

export interface SelfieFaceCheck {
  problem: ClientCheckCode | null;
  faces: number;
  eyeOpenness?: number;
  /** Time of the detection itself, models loaded (for the benchmark). */
  detectMs: number;
  /** The largest face's box as shares of the photo's sides (`selfieShowsDocument`). */
  face?: ShareBox;
}

const codeOf = {
  noFace: 'client.noFace',
  multipleFaces: 'client.multipleFaces',
  closedEyes: 'client.closedEyes',
  sunGlasses: 'client.sunGlasses',
  maskDetected: 'client.maskDetected',
} as const satisfies Record<string, ClientCheckCode>;

/** Detects faces on a selfie and judges them as the service will (in the face worker). */
export async function checkSelfieFace(image: Blob): Promise<SelfieFaceCheck> {
  const reply = await ask({ kind: 'selfie', image });
  if (reply && !reply.ok) throw failed();
  let selfie = reply && 'selfie' in reply ? reply.selfie : undefined;
  if (!selfie) {
    const { detection, human } = await onPage();
    selfie = await detection.judgeSelfie(human, image);
  }
  const { verdict, ...rest } = selfie;
  return { problem: verdict ? codeOf[verdict] : null, ...rest };
}

/**
 * The faces that count as a document photo's portrait (the service's count: on the found document,
 * then on its straightened crop), in the face worker; the crop is transferred (closed here when it
 * could not be).
 */
export async function documentFaces(
  image: Blob,
  found: { quad?: Point[]; crop?: ImageBitmap; minScore?: number } = {},
): Promise<number> {
  const { quad, crop, minScore } = found;
  const reply = await ask(
    {
      kind: 'document',
      image,
      ...(quad ? { quad } : {}),
      ...(crop ? { crop } : {}),
      ...(minScore ? { minScore } : {}),
    },
    crop ? [crop] : [],
  );
  if (reply && !reply.ok) throw failed();
  if (reply && 'document' in reply) return reply.document.faces;
  const { detection, human } = await onPage('count');
  // Not transferred: the page's copy of the crop is still usable (ImageBitmap stays with us).
  return (await detection.countDocumentFaces(human, image, quad, crop, minScore)).faces;
}
