import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { openStream, stopStream, unavailableReason, type UnavailableReason } from './media-stream';

/**
 * A camera stream shown in the returned video element while the component is mounted; its tracks
 * stop on unmount so the camera light goes off as soon as the capture closes.
 */
export function useMediaStream(
  alternatives: readonly MediaStreamConstraints[],
  onUnavailable: (reason: UnavailableReason) => void,
) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const reportUnavailable = useEffectEvent(onUnavailable);
  // The constraints are fixed for the component's life; a new array each render must not reopen it.
  const key = JSON.stringify(alternatives);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    openStream(JSON.parse(key) as MediaStreamConstraints[]).then(
      (s) => {
        if (cancelled) return stopStream(s);
        opened = s;
        setStream(s);
      },
      (error: unknown) => {
        if (!cancelled) reportUnavailable(unavailableReason(error));
      },
    );
    return () => {
      cancelled = true;
      stopStream(opened);
    };
  }, [key]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return;
    video.srcObject = stream;
    video.play().catch(() => {
      // Autoplay of a muted inline video is allowed everywhere we support; nothing to recover.
    });
  }, [stream]);

  return { videoRef, stream };
}
