import { lazy, Suspense, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { ErrorCode } from '@/shared/error-codes';
import { acceptAttribute, sniffAllowed, type AcceptKind, type ClientReason } from '../lib/client-checks';
import type { StoredFile } from '../lib/wizard-model';
import { FilePreview } from './file-preview';
import { ProblemMessage } from './problem-message';

// Camera helpers and the checks (image compression, pdf.js) load only when a capture needs them.
const CameraCapture = lazy(() =>
  import('../capture/camera-capture').then((m) => ({ default: m.CameraCapture })),
);
const VideoRecorder = lazy(() =>
  import('../capture/video-recorder').then((m) => ({ default: m.VideoRecorder })),
);

export type CapturedInfo = {
  /** The name of the file the person chose (the checked file may be a re-encoded copy). */
  originalName: string;
  phash?: string;
  pdf?: { encrypted: boolean; pageCount: number | null };
};

type Props = {
  /** Heading of the capture, e.g. "Front side". */
  label: string;
  accept: AcceptKind;
  checkKind: 'document' | 'selfie' | 'custom-document';
  camera?: { facing: 'environment' | 'user'; guide: 'document' | 'face' } | 'video';
  otherSide?: { phash: string };
  /** The photo must show a readable PDF417 barcode (a document side whose flow step requires one). */
  pdf417?: boolean;
  /** A PDF with more pages is refused here, as the service would refuse it (a one-page custom document). */
  maxPdfPages?: number;
  /** Only a bank statement comes with its password; the service cannot open any other protected PDF. */
  protectedPdfAllowed?: boolean;
  value?: StoredFile;
  getBlob: (key: string) => Promise<Blob | undefined>;
  onFile: (file: File, info: CapturedInfo) => Promise<void> | void;
};

type CameraState = 'closed' | 'open' | 'denied' | 'missing' | 'error';

export function CaptureField({
  label,
  accept,
  checkKind,
  camera,
  otherSide,
  pdf417 = false,
  maxPdfPages,
  protectedPdfAllowed = false,
  value,
  getBlob,
  onFile,
}: Props) {
  const { t } = useTranslation('wizard');
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  // A browser check's reason, or the service's code where the browser saw what the service would say.
  const [problem, setProblem] = useState<ClientReason | ErrorCode | null>(null);
  const [cameraState, setCameraState] = useState<CameraState>('closed');

  async function take(file: File) {
    setBusy(true);
    setProblem(null);
    try {
      const sniffed = await sniffAllowed(file, accept);
      if (!sniffed.ok) return setProblem(sniffed.reason);
      if (sniffed.format === 'pdf') {
        const { inspectPdf } = await import('../checks/check-pdf');
        const result = await inspectPdf(file, { maxPages: maxPdfPages });
        if (!result.ok) {
          // The same words as the service's refusal of a multi-page PDF for a one-page document.
          return setProblem(
            result.reason === 'client.tooManyPages'
              ? 'CustomDocumentPhoto.multiPageInputError'
              : (result.reason as ClientReason),
          );
        }
        if (result.encrypted && !protectedPdfAllowed) return setProblem('client.pdfProtected');
        await onFile(file, {
          originalName: file.name,
          pdf: { encrypted: result.encrypted, pageCount: result.pageCount },
        });
      } else if (accept === 'video') {
        const { checkVideo } = await import('../checks/check-video');
        const result = await checkVideo(file);
        if (!result.ok) return setProblem(result.reason as ClientReason);
        await onFile(file, { originalName: file.name });
      } else {
        const { checkImage } = await import('../checks/check-image');
        const result = await checkImage(file, {
          kind: checkKind,
          ...(otherSide ? { otherSide } : {}),
          ...(pdf417 ? { pdf417 } : {}),
        });
        if (!result.ok) return setProblem(result.reason as ClientReason);
        await onFile(result.file, { originalName: file.name, phash: result.phash });
      }
    } catch {
      setProblem('client.unreadable');
    } finally {
      setBusy(false);
    }
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void take(file);
  }

  const onUnavailable = (reason: 'denied' | 'missing' | 'error') => {
    setCameraState(reason);
    fileInput.current?.focus();
  };
  const onCaptured = (file: File) => {
    setCameraState('closed');
    void take(file);
  };

  const uploadLabel = {
    image: t('capture.uploadPhoto'),
    video: t('capture.uploadVideo'),
    pdf: t('capture.uploadPdf'),
    'image-or-pdf': t('capture.uploadImageOrPdf'),
  }[accept];

  return (
    <section className="capture-field" aria-label={label}>
      <h2 className="capture-title" tabIndex={-1}>
        {label}
      </h2>
      {value && (
        <div className="capture-current">
          <FilePreview file={value} getBlob={getBlob} label={t('capture.current', { label })} />
        </div>
      )}
      {camera && cameraState === 'open' && (
        <Suspense fallback={<p aria-live="polite">{t('capture.cameraStarting')}</p>}>
          {camera === 'video' ? (
            <VideoRecorder seconds={3} onRecorded={onCaptured} onUnavailable={onUnavailable} />
          ) : (
            <CameraCapture
              facing={camera.facing}
              guide={camera.guide}
              onCapture={onCaptured}
              onUnavailable={onUnavailable}
            />
          )}
          <button type="button" className="secondary" onClick={() => setCameraState('closed')}>
            {t('capture.closeCamera')}
          </button>
        </Suspense>
      )}
      {camera && (cameraState === 'denied' || cameraState === 'missing' || cameraState === 'error') && (
        <p role="alert" className="notice">
          {t(`capture.camera.${cameraState}`)}
        </p>
      )}
      <div className="capture-actions">
        {camera && cameraState === 'closed' && (
          <button type="button" onClick={() => setCameraState('open')} disabled={busy}>
            {camera === 'video'
              ? t('capture.recordVideo')
              : value
                ? t('capture.retakePhoto')
                : t('capture.takePhoto')}
          </button>
        )}
        <div className="file-upload">
          <label htmlFor={inputId}>{uploadLabel}</label>
          <input
            ref={fileInput}
            id={inputId}
            type="file"
            accept={acceptAttribute[accept]}
            onChange={onChange}
            disabled={busy}
          />
        </div>
      </div>
      {busy && (
        <p aria-live="polite" className="muted">
          {t('capture.checking')}
        </p>
      )}
      {problem && <ProblemMessage code={problem} />}
    </section>
  );
}
