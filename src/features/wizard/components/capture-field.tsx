import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import { formatLongDate } from '../lib/format';
import type { StoredFile } from '../lib/wizard-model';
import { useCaptureCheck, type CaptureRules } from '../hooks/use-capture-check';
import { FilePreview } from './file-preview';
import { PhotoCameraSheet, type CameraState } from './photo-camera-sheet';
import { ProblemMessage } from './problem-message';
import { UploadTiles } from './upload-tiles';
import { VideoCameraSheet } from './video-camera-sheet';

type Props = CaptureRules & {
  /** Heading of the capture, e.g. "Front side". */
  label: string;
  camera?: { facing: 'environment' | 'user'; guide: 'document' | 'face' } | 'video';
  /** The service's active liveness challenge, performed while the video records. */
  challenge?: LivenessChallenge;
  value?: StoredFile;
  getBlob: (key: string) => Promise<Blob | undefined>;
};

/**
 * One capture of the wizard: the file taken so far, and the ways a new one arrives (the camera's
 * photo, the camera's video, an upload or a drop), each checked the same way (useCaptureCheck).
 */
export function CaptureField({ label, camera, challenge, value, getBlob, ...rules }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const fileInput = useRef<HTMLInputElement>(null);
  const region = useRef<HTMLElement>(null);
  const [cameraState, setCameraState] = useState<CameraState>('closed');
  // After a file is taken, focus goes to its preview, so that keyboard and screen-reader users
  // hear what happened and continue from there, not from the top of the page.
  const focusPreview = useRef(false);
  const preview = useRef<HTMLDivElement>(null);
  const { onFile } = rules;
  const { busy, problem, expiredOn, take } = useCaptureCheck({
    ...rules,
    onFile: (file, info) => {
      focusPreview.current = true;
      return onFile(file, info);
    },
  });
  const { pdf417 = false, mrz = false } = rules;
  const readsOnCamera = useMemo(() => ({ pdf417, mrz }), [pdf417, mrz]);

  useEffect(() => {
    if (focusPreview.current && value) {
      focusPreview.current = false;
      preview.current?.focus();
    }
  }, [value]);

  const onUnavailable = (reason: 'denied' | 'missing' | 'error') => {
    setCameraState(reason);
    fileInput.current?.focus();
  };
  const closeCamera = () => {
    setCameraState('closed');
    region.current?.querySelector<HTMLElement>('.tile-camera')?.focus();
  };
  const cameraLabel =
    camera === 'video' ? t('capture.recordVideo') : value ? t('capture.retakePhoto') : t('capture.takePhoto');

  return (
    <section className="capture-field" aria-label={label} ref={region}>
      <h2 className="capture-title" tabIndex={-1}>
        {label}
      </h2>
      {value && (
        <div className="capture-current" ref={preview} tabIndex={-1}>
          <FilePreview file={value} getBlob={getBlob} label={t('capture.current', { label })} />
        </div>
      )}
      {camera === 'video'
        ? cameraState === 'open' && (
            <VideoCameraSheet
              {...(challenge ? { challenge } : {})}
              onRecorded={(file) => {
                setCameraState('closed');
                void take(file, true);
              }}
              onUnavailable={onUnavailable}
              onClose={closeCamera}
            />
          )
        : camera && (
            <PhotoCameraSheet
              label={label}
              state={cameraState}
              camera={camera}
              reads={readsOnCamera}
              onState={setCameraState}
              onUnavailable={onUnavailable}
              onClose={closeCamera}
              onTaken={(file, measured) => void take(file, true, measured)}
            />
          )}
      {camera && (cameraState === 'denied' || cameraState === 'missing' || cameraState === 'error') && (
        <p role="alert" className="notice">
          {t(`capture.camera.${cameraState}`)}
        </p>
      )}
      <UploadTiles
        accept={rules.accept}
        busy={busy}
        inputRef={fileInput}
        onChosen={(file) => void take(file)}
      >
        {camera && (cameraState === 'closed' || cameraState === 'denied' || cameraState === 'error') && (
          <button
            type="button"
            className="tile tile-camera"
            onClick={() => setCameraState(camera === 'video' ? 'open' : 'tips')}
            disabled={busy}
          >
            <span className="tile-icon" aria-hidden="true">
              {camera === 'video' ? '●' : '◉'}
            </span>
            {cameraLabel}
          </button>
        )}
      </UploadTiles>
      {busy && (
        <p aria-live="polite" className="muted">
          {t('capture.checking')}
        </p>
      )}
      {problem && (
        <ProblemMessage
          code={problem}
          {...(expiredOn ? { values: { date: formatLongDate(expiredOn, i18n.language) } } : {})}
        />
      )}
    </section>
  );
}
