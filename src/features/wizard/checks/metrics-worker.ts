/// <reference lib="webworker" />
// Decoding a 12-megapixel photo and walking its pixels takes long enough to freeze a phone's page.
import { decodeAndMeasure } from './image-pixels';

export interface MetricsRequest {
  id: number;
  file: Blob;
}

self.addEventListener('message', (event: MessageEvent<MetricsRequest>) => {
  const { id, file } = event.data;
  decodeAndMeasure(file).then(
    (metrics) => self.postMessage({ id, metrics }),
    () => self.postMessage({ id, metrics: null }),
  );
});
