import { parentPort } from 'node:worker_threads';
import type { FaceUse } from '@/shared/face-rules';
import { detectFacesInFile, loadFaceModels } from './faces';

// The face worker: runs Human for face-reader.ts, off the service's event loop (one image at a time).
export interface FaceJob {
  id: number;
  path: string;
  use: FaceUse;
}

// Models loaded at once, so that a worker started ahead of time is ready for the first image.
void loadFaceModels().catch(() => undefined);

parentPort!.on('message', (job: FaceJob) => {
  detectFacesInFile(job.path, job.use).then(
    (reading) => parentPort!.postMessage({ id: job.id, reading }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: String(error) }),
  );
});
