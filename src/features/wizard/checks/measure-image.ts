import type { ImageMetrics } from '@/shared/image-metrics';
import { decodeAndMeasure } from './image-pixels';
import type { MetricsRequest } from './metrics-worker';

let worker: Worker | null = null;
let nextId = 0;
// undefined: the worker died before answering.
const pending = new Map<number, (metrics: ImageMetrics | null | undefined) => void>();

function metricsWorker(): Worker | null {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  if (!worker) {
    worker = new Worker(new URL('./metrics-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener(
      'message',
      (event: MessageEvent<{ id: number; metrics: ImageMetrics | null }>) => {
        pending.get(event.data.id)?.(event.data.metrics);
        pending.delete(event.data.id);
      },
    );
    worker.addEventListener('error', () => {
      // A worker that cannot start (old browser, blocked by policy): answer on the page instead.
      worker = null;
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve(undefined);
      }
    });
  }
  return worker;
}

/** Size and metrics of an image as displayed; null when the browser cannot decode it. */
export async function measureImage(file: Blob): Promise<ImageMetrics | null> {
  const target = metricsWorker();
  if (target) {
    const id = nextId++;
    const answer = await new Promise<ImageMetrics | null | undefined>((resolve) => {
      pending.set(id, resolve);
      target.postMessage({ id, file } satisfies MetricsRequest);
    });
    if (answer !== undefined) return answer;
  }
  return decodeAndMeasure(file).catch(() => null);
}
