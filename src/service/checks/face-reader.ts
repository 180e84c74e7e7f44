import type { Worker } from 'node:worker_threads';
import type { FaceUse } from '@/checks/face/face-rules';
import type { FaceJob } from './face-worker';
import { startWorkerThread } from './worker-thread';
import type { FaceReading } from '@/checks/face/node/faces';
import type { FacePixels } from '@/checks/image/node/image';

/**
 * Face detection runs in one worker thread (TensorFlow.js's wasm backend computes synchronously:
 * 100–300 ms an image would otherwise hold every other request, and the PDF readers' timers). The
 * worker keeps the models loaded; an image that takes longer than the limit ends it.
 */
const TIME_LIMIT_MS = 60_000;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<
  number,
  { resolve: (r: FaceReading) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
>();

function startWorker(): Worker {
  const w = startWorkerThread('face-worker');
  w.unref();
  const failAll = (reason: string) => {
    if (worker === w) worker = undefined;
    for (const [id, task] of pending) {
      clearTimeout(task.timer);
      task.reject(new Error(reason));
      pending.delete(id);
    }
  };
  w.on('message', (answer: { id: number; reading?: FaceReading; error?: string }) => {
    const task = pending.get(answer.id);
    if (!task) return;
    pending.delete(answer.id);
    clearTimeout(task.timer);
    if (answer.reading) task.resolve(answer.reading);
    else task.reject(new Error(answer.error ?? 'face detection failed'));
    if (pending.size === 0) w.unref();
  });
  w.on('error', () => failAll('the face worker failed'));
  w.on('exit', () => failAll('the face worker stopped'));
  return w;
}

/**
 * Detects faces in the face worker, with the models `use` needs: in an image file (JPEG/PNG, its
 * own bounded decode) or in pixels of the image's one decode (moved to the worker, not copied).
 */
export function detectFaces(
  image: string | FacePixels,
  use: FaceUse,
  options: { crowd?: boolean } = {},
): Promise<FaceReading> {
  worker ??= startWorker();
  const w = worker;
  w.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    // The limit counts from the request: jobs run one at a time, so a long queue ends the worker too.
    const timer = setTimeout(() => {
      void w.terminate();
    }, TIME_LIMIT_MS);
    pending.set(id, { resolve, reject, timer });
    w.postMessage(
      { id, image, use, crowd: options.crowd } satisfies FaceJob,
      typeof image === 'string' ? [] : [image.data.buffer],
    );
  });
}

/** Starts the worker and loads the models ahead of the first image (about 1–3 s), once per process. */
export function warmFaceReader() {
  worker ??= startWorker();
}
