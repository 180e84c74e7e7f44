import { useEffect, useState, type RefObject } from 'react';
import type { FaceGuide } from '@/checks/face/face-rules';

/** What the live camera's guide says: about the face in front of it, or the document's code. */
export type CameraGuideState =
  | { kind: 'face'; state: 'starting' | FaceGuide }
  | { kind: 'document'; state: 'reading' | 'notReadable' | 'readable' }
  | null;

/** What a document side must show, read from the live frames for the hint. */
export interface DocumentReads {
  pdf417?: boolean;
  mrz?: boolean;
}

/**
 * Pause between two looks at the live frames, counted from the end of the previous one: the face
 * detection runs in the face worker (on the page's thread only where workers are missing), but it
 * still takes a core of a phone's few, so it never runs back to back. The MRZ OCR runs in
 * tesseract.js's worker and the barcode reader is quick, but both are heavier than a look at a
 * face, hence the longer pause.
 */
export const FACE_GUIDE_PAUSE_MS = 600;
export const DOCUMENT_GUIDE_PAUSE_MS = 1500;

const frameBlob = (video: HTMLVideoElement) => {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
};

/**
 * Watches the live video at a modest rate and says what the capture would meet: for a selfie,
 * no face, too far, several faces or ready (the selfie rule of `@/checks/face/face-rules`); for a
 * document side that must show a barcode or an MRZ, whether it can be read yet. Advice only: the
 * shutter is never held back. The checks load lazily, as for the photo itself; a browser that
 * cannot run them gets no guide.
 */
export function useCameraGuide(
  videoRef: RefObject<HTMLVideoElement | null>,
  live: boolean,
  guide: 'face' | 'document',
  reads: DocumentReads,
): CameraGuideState {
  const watchesDocument = guide === 'document' && (reads.pdf417 || reads.mrz);
  const [state, setState] = useState<CameraGuideState>(
    guide === 'face'
      ? { kind: 'face', state: 'starting' }
      : watchesDocument
        ? { kind: 'document', state: 'reading' }
        : null,
  );
  const { pdf417, mrz } = reads;

  useEffect(() => {
    if (!live || (guide === 'document' && !pdf417 && !mrz)) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = () => {
      const video = videoRef.current;
      return video && video.videoWidth > 0 && video.readyState >= 2 ? video : null;
    };

    async function lookAtFace() {
      const { guideFrame } = await import('../checks/check-faces');
      return async (video: HTMLVideoElement) => {
        const { guide } = await guideFrame(video);
        if (!stopped) setState({ kind: 'face', state: guide });
      };
    }

    async function lookAtDocument() {
      const barcode = pdf417 ? await import('@/checks/document/browser/check-barcode') : null;
      const ocr = mrz ? await import('@/checks/mrz/browser/check-mrz') : null;
      return async (video: HTMLVideoElement) => {
        const start = performance.now();
        const blob = await frameBlob(video);
        if (!blob) return;
        const readable =
          (!barcode || (await barcode.readPdf417(blob)).found) && (!ocr || (await ocr.mrzInView(blob)));
        // One measure per read: the readers' word is on the status line only once the document
        // look lets it be, so this is how a test (and a profile) sees that they had their say.
        performance.measure('camera-guide:document', { start });
        if (!stopped) setState({ kind: 'document', state: readable ? 'readable' : 'notReadable' });
      };
    }

    const pause = guide === 'face' ? FACE_GUIDE_PAUSE_MS : DOCUMENT_GUIDE_PAUSE_MS;
    void (guide === 'face' ? lookAtFace() : lookAtDocument())
      .then((look) => {
        const loop = async () => {
          if (stopped) return;
          const video = ready();
          if (video) await look(video).catch(() => undefined);
          if (!stopped) timer = setTimeout(() => void loop(), pause);
        };
        void loop();
      })
      .catch(() => !stopped && setState(null));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [live, guide, pdf417, mrz, videoRef]);

  return state;
}
