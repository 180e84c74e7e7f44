import { lazy, Suspense } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';

// The recorder loads only when a capture opens the camera.
const VideoRecorder = lazy(() =>
  import('../capture/video-recorder').then((m) => ({ default: m.VideoRecorder })),
);

type Props = {
  /** The service's active liveness challenge, performed while the video records. */
  challenge?: LivenessChallenge;
  onRecorded: (file: File) => void;
  onUnavailable: (reason: 'denied' | 'missing' | 'error') => void;
  onClose: () => void;
};

/** A video recorded with the camera (the liveness clip, with its challenge told live). */
export function VideoCameraSheet({ challenge, onRecorded, onUnavailable, onClose }: Props) {
  const { t } = useTranslation('wizard');
  return (
    <div className="camera-sheet">
      {/* First, as camera screens put their way out: a challenge's instructions and the preview
          fill a phone's screen, and the button under them fell below it. */}
      <button type="button" className="secondary camera-sheet-close" onClick={onClose}>
        {t('capture.closeCamera')}
      </button>
      <Suspense fallback={<p aria-live="polite">{t('capture.cameraStarting')}</p>}>
        <VideoRecorder
          seconds={3}
          {...(challenge ? { challenge } : {})}
          onRecorded={onRecorded}
          onUnavailable={onUnavailable}
        />
      </Suspense>
    </div>
  );
}
