import type { OutlineVerdict } from '@/checks/document/document-outline';
import type { DocumentAnswer, DocumentRequest } from './document-worker';

/**
 * Whether a photo shows a document, with the service's rules (`@/checks/document/document-outline`), in the
 * document worker. Loaded by a document step on its first photo; the worker and OpenCV stay for
 * the next ones. null when it cannot run here (no worker, no OffscreenCanvas, no WebAssembly): the
 * service judges the photo then.
 */

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (answer: DocumentAnswer) => void>();

function documentWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./document-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<DocumentAnswer>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    });
    worker.addEventListener('error', () => {
      for (const answer of waiting.values()) answer({ id: 0, verdict: null });
      waiting.clear();
      worker = undefined;
    });
  }
  return worker;
}

/**
 * The worker's whole answer: the verdict and the look's own time (bench:browser-checks); `live`
 * for the camera's frames (a VideoFrame or a bitmap, transferred), with their blur and glare.
 */
export function lookAtDocument(
  source: Blob | ImageBitmap | VideoFrame,
  live = false,
  straighten = false,
): Promise<DocumentAnswer | null> {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return Promise.resolve(null);
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    const request: DocumentRequest = { id, source, live, ...(straighten ? { straighten } : {}) };
    documentWorker().postMessage(request, source instanceof Blob ? [] : [source]);
  });
}

export const findDocument = (source: Blob | ImageBitmap): Promise<OutlineVerdict | null> =>
  lookAtDocument(source).then((answer) => answer?.verdict ?? null);

/**
 * A photo's verdict with, when framed, the document's corners (shares of the photo's sides) and its
 * straightened crop, which the portrait is looked for on as in the service; whether a cover or a
 * screen's ripples are over it.
 */
export const findDocumentSide = (
  source: Blob,
): Promise<Pick<DocumentAnswer, 'verdict' | 'quad' | 'crop' | 'covered' | 'screen'> | null> =>
  lookAtDocument(source, false, true).then((answer) => (answer?.verdict ? answer : null));
