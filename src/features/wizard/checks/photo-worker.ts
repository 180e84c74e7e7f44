/// <reference lib="webworker" />
// Decoding a 12-megapixel photo, walking its pixels and encoding a JPEG take long enough to freeze
// a phone's page: all of it happens here, off the page's thread.
import { runPhotoJob, type PhotoJob, type PhotoOutcome } from './photo-pixels';

export interface PhotoRequest {
  id: number;
  /** A file, or a camera frame (transferred, not copied). */
  source: Blob | ImageBitmap | VideoFrame;
  job: PhotoJob;
}

/** null: the photo cannot be decoded. */
export interface PhotoAnswer {
  id: number;
  outcome: PhotoOutcome | null;
}

self.addEventListener('message', (event: MessageEvent<PhotoRequest>) => {
  const { id, source, job } = event.data;
  const bitmap =
    typeof VideoFrame === 'function' && source instanceof VideoFrame
      ? createImageBitmap(source).finally(() => source.close())
      : Promise.resolve(source as Blob | ImageBitmap);
  bitmap
    .then((pixels) => runPhotoJob(pixels, job))
    .then(
      (outcome) => self.postMessage({ id, outcome } satisfies PhotoAnswer),
      () => self.postMessage({ id, outcome: null } satisfies PhotoAnswer),
    );
});
