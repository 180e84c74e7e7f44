import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { ImageMetrics } from '@/checks/image/image-metrics';

// The camera helpers load only when a capture opens the camera.
const CameraCapture = lazy(() =>
  import('../capture/camera-capture').then((m) => ({ default: m.CameraCapture })),
);

/** The camera's way: tips first, then the live camera, then the shot shown large to confirm. */
export type CameraState = 'closed' | 'tips' | 'open' | 'confirm' | 'denied' | 'missing' | 'error';

type Props = {
  label: string;
  state: CameraState;
  camera: { facing: 'environment' | 'user'; guide: 'document' | 'face' };
  /** What the live camera reads on a document side (barcode, MRZ) to tell the person. */
  reads: { pdf417: boolean; mrz: boolean };
  onState: (state: CameraState) => void;
  onUnavailable: (reason: 'denied' | 'missing' | 'error') => void;
  onClose: () => void;
  /** The shot the person confirmed, with the metrics measured on the frame it came from. */
  onTaken: (file: File, measured?: ImageMetrics) => void;
};

/** A photo taken with the camera: its tips, the live camera, then the shot to confirm or retake. */
export function PhotoCameraSheet({
  label,
  state,
  camera,
  reads,
  onState,
  onUnavailable,
  onClose,
  onTaken,
}: Props) {
  const { t } = useTranslation('wizard');
  const [shot, setShot] = useState<{ file: File; url: string; measured?: ImageMetrics } | null>(null);
  // The first button of the tips and of the confirmation takes the focus when they open.
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => () => void (shot && URL.revokeObjectURL(shot.url)), [shot]);
  useEffect(() => {
    if (state === 'tips' || state === 'confirm') sheet.current?.querySelector('button')?.focus();
  }, [state]);

  const tips =
    camera.guide === 'face'
      ? (['faceLight', 'faceAlone', 'faceNothing'] as const)
      : (['docFlat', 'docCorners', 'docGlare'] as const);

  if (state === 'tips')
    return (
      <div className="capture-tips" ref={sheet}>
        <h3>{t('capture.tipsTitle')}</h3>
        <ul className="check-list">
          {tips.map((tip) => (
            <li key={tip}>{t(`capture.tips.${tip}`)}</li>
          ))}
        </ul>
        <div className="actions">
          <button type="button" onClick={() => onState('open')}>
            {t('capture.openCamera')}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            {t('capture.cancel')}
          </button>
        </div>
      </div>
    );
  if (state === 'open')
    return (
      <div className="camera-sheet">
        <Suspense fallback={<p aria-live="polite">{t('capture.cameraStarting')}</p>}>
          <CameraCapture
            facing={camera.facing}
            guide={camera.guide}
            reads={reads}
            onCapture={(file, measured) => {
              setShot({ file, url: URL.createObjectURL(file), ...(measured ? { measured } : {}) });
              onState('confirm');
            }}
            onUnavailable={onUnavailable}
          />
          <button type="button" className="secondary" onClick={onClose}>
            {t('capture.closeCamera')}
          </button>
        </Suspense>
      </div>
    );
  if (state === 'confirm' && shot)
    return (
      <div className="camera-sheet camera-confirm" ref={sheet}>
        <img src={shot.url} alt={t('capture.shotAlt', { label })} className="camera-shot" />
        <p>{t('capture.confirmHint')}</p>
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              onState('closed');
              onTaken(shot.file, shot.measured);
            }}
          >
            {t('capture.usePhoto')}
          </button>
          <button type="button" className="secondary" onClick={() => onState('open')}>
            {t('capture.retakeShot')}
          </button>
        </div>
      </div>
    );
  return null;
}
