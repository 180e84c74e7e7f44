import { useEffect, useRef, useState, type RefObject } from 'react';
import { OUTLINE_LONG_SIDE, type Point } from '@/checks/document/document-outline';
import {
  adviseOn,
  documentQuad,
  LOOK_INTERVAL_MS,
  SteadyWatch,
  type CodeState,
  type DocumentAdvice,
  type LiveLook,
} from './document-guide';

export interface DocumentLookState {
  advice: DocumentAdvice;
  /** The found document's corners, in the coordinates of a frame `width`×`height` (the video's aspect). */
  quad: Point[] | null;
  width: number;
  height: number;
}

/** Never two looks back to back, even when one takes longer than LOOK_INTERVAL_MS. */
const MIN_PAUSE_MS = 80;

/**
 * The document camera's live look: a few frames a second, transferred to the document worker
 * (`../checks/check-document.ts`), which finds the document and measures blur and glare; the
 * page's thread only grabs the frame and draws the answer. Each look is advised on with what the
 * code readers last said (`code`: one rule, `adviseOn`, for the message and the automatic photo).
 * After STEADY_MS of good, steady looks
 * it calls `onSteady` (the shutter's own path), and stops looking once that says the photo is
 * being taken. The worker and OpenCV load when this starts, never with the first screen. null
 * where the worker cannot run (no guide then; the shutter stays).
 *
 * Each look leaves two User Timing measures, `document-look:main` (the page's thread: grabbing
 * the frame, and handling the answer) and `document-look:worker` (the worker's whole look at the
 * frame: drawing it at the look's size, the outline, blur and glare).
 */
export function useDocumentLook(
  videoRef: RefObject<HTMLVideoElement | null>,
  watches: boolean,
  live: boolean,
  code: () => CodeState,
  onSteady: () => boolean,
): DocumentLookState | null {
  const [state, setState] = useState<DocumentLookState | null>(
    watches ? { advice: 'searching', quad: null, width: 4, height: 3 } : null,
  );
  const steadyRef = useRef(onSteady);
  const codeRef = useRef(code);
  useEffect(() => {
    steadyRef.current = onSteady;
    codeRef.current = code;
  });

  useEffect(() => {
    if (!watches || !live) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = new SteadyWatch();
    async function lookOnce(lookAt: (frame: VideoFrame | ImageBitmap) => Promise<LiveLook | null>) {
      const video = videoRef.current;
      if (!video || video.readyState < 2 || !video.videoWidth) return true;
      let mainMs = 0;
      let started = performance.now();
      // A VideoFrame wraps the decoded frame as it is: the colour conversion and the shrinking
      // happen in the worker. Elsewhere the browser shrinks a bitmap to the look's size first.
      let frame: VideoFrame | ImageBitmap;
      if (typeof VideoFrame === 'function') frame = new VideoFrame(video);
      else {
        const shrink = Math.min(1, OUTLINE_LONG_SIDE / Math.max(video.videoWidth, video.videoHeight));
        const grabbing = createImageBitmap(video, {
          resizeWidth: Math.round(video.videoWidth * shrink),
          resizeHeight: Math.round(video.videoHeight * shrink),
          resizeQuality: 'low',
        });
        mainMs += performance.now() - started;
        frame = await grabbing;
        started = performance.now();
      }
      const answer = lookAt(frame);
      mainMs += performance.now() - started;
      const look = await answer;
      if (stopped) return false;
      if (!look) return false;
      started = performance.now();
      const advice = adviseOn(look, codeRef.current());
      const take = watch.see(look, advice, performance.now()) && steadyRef.current();
      const quad = look.verdict.kind === 'cropped' ? look.verdict.quad : documentQuad(look);
      setState({ advice: take ? 'taken' : advice, quad, width: look.width, height: look.height });
      mainMs += performance.now() - started;
      performance.measure('document-look:main', { start: started - mainMs, duration: mainMs });
      return !take;
    }

    void import('../checks/check-document')
      .then(({ lookAtDocument }) => {
        const lookAt = async (frame: VideoFrame | ImageBitmap) => {
          const answer = await lookAtDocument(frame, true);
          if (!answer) frame.close();
          if (answer?.ms !== undefined)
            performance.measure('document-look:worker', {
              start: performance.now() - answer.ms,
              duration: answer.ms,
            });
          return answer?.live ?? null;
        };
        const loop = async () => {
          if (stopped) return;
          const started = performance.now();
          const more = await lookOnce(lookAt).catch(() => true);
          if (!more) {
            // Taken, or no worker here: the guide stays as it is (taken) or goes (the shutter stays).
            if (!stopped) setState((s) => (s?.advice === 'taken' ? s : null));
            return;
          }
          const wait = Math.max(MIN_PAUSE_MS, LOOK_INTERVAL_MS - (performance.now() - started));
          if (!stopped) timer = setTimeout(() => void loop(), wait);
        };
        void loop();
      })
      .catch(() => !stopped && setState(null));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [watches, live, videoRef]);

  return state;
}
