import { parentPort } from 'node:worker_threads';
import { openCvReady } from '@/checks/document/node/document-finder';
import sharp from 'sharp';
import { inspectImage, type ImageJob } from '@/checks/image/node/image';
import { lowerThisThreadPriority } from './worker-thread';

lowerThisThreadPriority();
// OpenCV's wasm compiles while the worker waits for its first image.
void openCvReady();
// libvips's operation cache (one per process) would keep recent decodes' buffers alive after a
// burst; every upload is a new file, so nothing in it is ever reused.
sharp.cache(false);

// An image worker: decodes and measures one image at a time for image-pool.ts, off the service's
// event loop (the metrics and the barcode reader are plain CPU work).
parentPort!.on('message', (job: ImageJob & { id: number }) => {
  // The pool counts an image's time from here, not from a fresh worker's start.
  parentPort!.postMessage({ id: job.id, started: true });
  inspectImage(job.path, job).then(
    // The face pixels are moved, not copied, to the service's thread.
    (result) =>
      parentPort!.postMessage(
        { id: job.id, result },
        result.ok
          ? [result.faces?.data.buffer, result.facesCrop?.data.buffer].filter((b) => b !== undefined)
          : [],
      ),
    () =>
      parentPort!.postMessage({
        id: job.id,
        result: { ok: false, reason: 'the image pixels cannot be decoded' },
      }),
  );
});
