import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import type { FaceUse } from '@/checks/face/face-rules';
import { detectFacesInFile, detectFacesInPixels, loadFaceModels } from '@/checks/face/node/faces';
import type { FacePixels } from '@/checks/image/node/image';
import { lowerThisThreadPriority } from './worker-thread';

lowerThisThreadPriority();
// libvips's operation cache (one per process) would keep recent decodes' buffers alive after a
// burst; every upload is a new file, so nothing in it is ever reused.
sharp.cache(false);

// The face worker: runs Human for face-reader.ts, off the service's event loop (one image at a time).
export interface FaceJob {
  id: number;
  /** An image file, or the pixels of its one decode (image.ts), moved here. */
  image: string | FacePixels;
  use: FaceUse;
  /** A still photo: small faces are looked for in tiles too (faces.ts, withCrowd). */
  crowd?: boolean;
}

// Models loaded at once, so that a worker started ahead of time is ready for the first image.
void loadFaceModels().catch(() => undefined);

parentPort!.on('message', (job: FaceJob) => {
  const { image, use } = job;
  const options = { crowd: job.crowd };
  const reading =
    typeof image === 'string'
      ? detectFacesInFile(image, use, options)
      : detectFacesInPixels(image, use, options);
  reading.then(
    (reading) => parentPort!.postMessage({ id: job.id, reading }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: String(error) }),
  );
});
