/// <reference lib="webworker" />
// A look at a face takes tens of milliseconds of TensorFlow.js (more with a face in view: facemesh
// and iris run too), every ~650 ms while the camera is open: done here, the page's thread stays
// free for the preview and the buttons. Human runs on its wasm backend with OffscreenCanvas here.
import type { Point } from '@/checks/document/document-outline';
import {
  backendOf,
  countDocumentFaces,
  judgeSelfie,
  loadHuman,
  lookAtFrame,
  type FaceLook,
  type FaceModelPaths,
  type SelfieFaces,
} from '@/checks/face/browser/face-detection';

export type FaceJob =
  | { kind: 'load' }
  /** A live camera frame, transferred (not copied); closed here once drawn. */
  | { kind: 'guide'; frame: ImageBitmap | VideoFrame }
  | { kind: 'selfie'; image: Blob }
  /** A document photo: the found document's corners (shares) and its straightened crop (transferred). */
  | { kind: 'document'; image: Blob; quad?: Point[]; crop?: ImageBitmap; minScore?: number };

/** Every request says where the models are: the first one loads them, whichever it is. */
export type FaceRequest = { id: number; paths: FaceModelPaths } & FaceJob;

export type FaceAnswer =
  | { id: number; ok: true; backend: string }
  | { id: number; ok: true; look: FaceLook }
  | { id: number; ok: true; selfie: SelfieFaces }
  | { id: number; ok: true; document: { faces: number; detectMs: number } }
  | { id: number; ok: false };

async function answer(request: FaceRequest): Promise<FaceAnswer> {
  // A document's portrait count needs no eye openness: the iris model waits for a selfie.
  const human = await loadHuman(request.paths, request.kind === 'document' ? 'count' : 'selfie');
  const { id } = request;
  switch (request.kind) {
    case 'load':
      return { id, ok: true, backend: backendOf(human) };
    case 'guide': {
      const { frame } = request;
      const size =
        frame instanceof ImageBitmap
          ? { width: frame.width, height: frame.height }
          : { width: frame.displayWidth, height: frame.displayHeight };
      try {
        return { id, ok: true, look: await lookAtFrame(human, frame, size) };
      } finally {
        frame.close();
      }
    }
    case 'selfie':
      return { id, ok: true, selfie: await judgeSelfie(human, request.image) };
    case 'document':
      return {
        id,
        ok: true,
        document: await countDocumentFaces(
          human,
          request.image,
          request.quad,
          request.crop,
          request.minScore,
        ),
      };
  }
}

self.addEventListener('message', (event: MessageEvent<FaceRequest>) => {
  const { id } = event.data;
  answer(event.data).then(
    (reply) => self.postMessage(reply),
    () => {
      if (event.data.kind === 'guide') event.data.frame.close();
      if (event.data.kind === 'document') event.data.crop?.close();
      self.postMessage({ id, ok: false } satisfies FaceAnswer);
    },
  );
});
