import type { ImageMetrics } from '@/checks/image/image-metrics';
import { SNAPSHOT_QUALITY } from './compression-plan';
import { runPhotoJob, type PhotoJob, type PhotoOutcome } from './photo-pixels';
import type { PhotoAnswer, PhotoRequest } from './photo-worker';

let worker: Worker | null = null;
let nextId = 0;
// undefined: the worker died before answering.
const pending = new Map<number, (outcome: PhotoOutcome | null | undefined) => void>();

function photoWorker(): Worker | null {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  if (!worker) {
    worker = new Worker(new URL('./photo-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<PhotoAnswer>) => {
      pending.get(event.data.id)?.(event.data.outcome);
      pending.delete(event.data.id);
    });
    worker.addEventListener('error', () => {
      // A worker that cannot start (old browser, blocked by policy): the page does the work instead.
      worker = null;
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve(undefined);
      }
    });
  }
  return worker;
}

/**
 * Decodes, measures and (when planned) re-encodes a photo in the photo worker (photo-pixels.ts),
 * or on the page where workers or OffscreenCanvas are missing; null when it cannot be decoded.
 */
export async function preparePhoto(
  source: Blob | ImageBitmap | VideoFrame,
  job: PhotoJob,
): Promise<PhotoOutcome | null> {
  const target = photoWorker();
  if (target) {
    const id = nextId++;
    let transferred = !(source instanceof Blob);
    const answer = await new Promise<PhotoOutcome | null | undefined>((resolve) => {
      pending.set(id, resolve);
      try {
        target.postMessage(
          { id, source, job } satisfies PhotoRequest,
          source instanceof Blob ? [] : [source],
        );
      } catch {
        // A browser that cannot transfer a VideoFrame to a worker: the page does the work.
        transferred = false;
        pending.delete(id);
        resolve(undefined);
      }
    });
    if (answer !== undefined) return answer;
    // A transferred frame is gone with the worker.
    if (transferred) return null;
  }
  const pixels =
    typeof VideoFrame === 'function' && source instanceof VideoFrame
      ? await createImageBitmap(source).finally(() => source.close())
      : (source as Blob | ImageBitmap);
  return runPhotoJob(pixels, job).catch(() => null);
}

/** A camera photo: the JPEG to upload and its metrics, measured from the same frame. */
export interface CameraShot {
  file: File;
  metrics: ImageMetrics;
}

/**
 * Takes the video's current frame straight into the photo pipeline (no PNG or canvas round trip on
 * the page): a VideoFrame where the browser has them (transferred to the worker, no copy), else an
 * ImageBitmap. Throws when the frame cannot be taken.
 */
export async function captureFrame(video: HTMLVideoElement, name: string): Promise<CameraShot> {
  const frame = typeof VideoFrame === 'function' ? new VideoFrame(video) : await createImageBitmap(video);
  const outcome = await preparePhoto(frame, {
    bytes: 0,
    encode: true,
    quality: SNAPSHOT_QUALITY,
    markers: [],
  });
  if (!outcome?.ok || !outcome.jpeg) throw new Error('the camera frame could not be taken');
  return {
    file: new File([outcome.jpeg], name, { type: 'image/jpeg' }),
    metrics: outcome.metrics,
  };
}
