import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type DragEvent,
} from 'react';
import { useTranslation } from '@/lib/i18n';
import { useMediaQuery } from '@/lib/use-media-query';
import type { ErrorCode } from '@/shared/error-codes';
import type { DocumentType } from '@/shared/flow';
import type { LivenessChallenge } from '@/shared/liveness-challenge';
import { formatLongDate } from '../lib/format';
import type { ImageMetrics } from '@/shared/image-metrics';
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
  /** Taken with the camera on this page. */
  fromCamera?: boolean;
};

type Props = {
  /** Heading of the capture, e.g. "Front side". */
  label: string;
  accept: AcceptKind;
  checkKind: 'document' | 'selfie' | 'custom-document';
  camera?: { facing: 'environment' | 'user'; guide: 'document' | 'face' } | 'video';
  /** The service's active liveness challenge, performed while the video records. */
  challenge?: LivenessChallenge;
  otherSide?: { phash: string };
  /** The photo must show a readable PDF417 barcode (a document side whose flow step requires one). */
  pdf417?: boolean;
  /** The photo must show a readable MRZ (a document side whose flow step requires one there). */
  mrz?: boolean;
  /** The type and country the person chose, against what the document's MRZ or barcode states. */
  claim?: { type: DocumentType; country: string };
  /** A refusal that names the person's choice (type or country), so the step can offer to change it. */
  onRefused?: (code: string) => void;
  /** A PDF with more pages is refused here, as the service would refuse it (a one-page custom document). */
  maxPdfPages?: number;
  /** Only a bank statement comes with its password; the service cannot open any other protected PDF. */
  protectedPdfAllowed?: boolean;
  value?: StoredFile;
  getBlob: (key: string) => Promise<Blob | undefined>;
  onFile: (file: File, info: CapturedInfo) => Promise<void> | void;
};

/** The camera's way: tips first, then the live camera, then the shot shown large to confirm. */
type CameraState = 'closed' | 'tips' | 'open' | 'confirm' | 'denied' | 'missing' | 'error';

const dragScreen = '(hover: hover) and (pointer: fine) and (min-width: 600px)';
const imageAccepts = new Set<AcceptKind>(['image', 'image-or-pdf']);
// Photos in other formats are taken too: they are turned into JPEG here (lib/convert-image).
const convertibleAccept = 'image/heic,image/heif,image/webp,image/avif,.heic,.heif,.webp,.avif';

/** A wrong file's message names what this capture takes. */
function wrongFormatFor(accept: AcceptKind): ClientReason {
  if (accept === 'pdf') return 'client.wrongFormatPdf';
  if (accept === 'image-or-pdf') return 'client.wrongFormatImageOrPdf';
  return 'client.wrongFormat';
}

export function CaptureField({
  label,
  accept,
  checkKind,
  camera,
  challenge,
  otherSide,
  pdf417 = false,
  mrz = false,
  claim,
  onRefused,
  maxPdfPages,
  protectedPdfAllowed = false,
  value,
  getBlob,
  onFile,
}: Props) {
  const { t, i18n } = useTranslation('wizard');
  const { language } = i18n;
  const inputId = useId();
  const hintId = useId();
  // Files are dragged with a mouse on a large screen; a phone is never told to drag one.
  const canDrag = useMediaQuery(dragScreen);
  const fileInput = useRef<HTMLInputElement>(null);
  const region = useRef<HTMLElement>(null);
  const [busy, setBusy] = useState(false);
  // A browser check's reason, or the service's code where the browser saw what the service would say.
  const [problem, setProblem] = useState<ClientReason | ErrorCode | null>(null);
  // The expiry date an expired document's MRZ states (YYYY-MM-DD), told with the refusal.
  const [expiredOn, setExpiredOn] = useState<string | null>(null);
  const [cameraState, setCameraState] = useState<CameraState>('closed');
  const [shot, setShot] = useState<{ file: File; url: string; measured?: ImageMetrics } | null>(null);
  const [dragging, setDragging] = useState(false);
  // After a file is taken, focus goes to its preview, so that keyboard and screen-reader users
  // hear what happened and continue from there, not from the top of the page.
  const focusPreview = useRef(false);
  const preview = useRef<HTMLDivElement>(null);
  // The first button of the tips and of the confirmation takes the focus when they open.
  const sheet = useRef<HTMLDivElement>(null);
  const converts = imageAccepts.has(accept);
  const readsOnCamera = useMemo(() => ({ pdf417, mrz }), [pdf417, mrz]);

  useEffect(() => () => void (shot && URL.revokeObjectURL(shot.url)), [shot]);
  useEffect(() => {
    if (focusPreview.current && value) {
      focusPreview.current = false;
      preview.current?.focus();
    }
  }, [value]);
  useEffect(() => {
    if (cameraState === 'tips' || cameraState === 'confirm') sheet.current?.querySelector('button')?.focus();
  }, [cameraState]);

  async function take(chosen: File, fromCamera = false, measured?: ImageMetrics) {
    setBusy(true);
    setProblem(null);
    setExpiredOn(null);
    try {
      let file = chosen;
      if (converts) {
        const { sniffConvertible, convertToJpeg } = await import('../lib/convert-image');
        const format = sniffConvertible(new Uint8Array(await chosen.slice(0, 64).arrayBuffer()));
        if (format) {
          try {
            file = await convertToJpeg(chosen, format);
          } catch {
            return setProblem('client.convertFailed');
          }
        }
      }
      const sniffed = await sniffAllowed(file, accept);
      if (!sniffed.ok)
        return setProblem(sniffed.reason === 'client.wrongFormat' ? wrongFormatFor(accept) : sniffed.reason);
      if (sniffed.format === 'pdf') {
        const { inspectPdf } = await import('../checks/check-pdf');
        const result = await inspectPdf(file, { maxPages: maxPdfPages });
        if (!result.ok) {
          // The same words as the service's refusal of a multi-page PDF for a one-page document.
          if (result.reason === 'client.tooManyPages')
            return setProblem('CustomDocumentPhoto.multiPageInputError');
          return setProblem(
            result.reason === 'client.unreadable' ? 'client.pdfUnreadable' : (result.reason as ClientReason),
          );
        }
        if (result.encrypted && !protectedPdfAllowed) return setProblem('client.pdfProtected');
        focusPreview.current = true;
        await onFile(file, {
          originalName: chosen.name,
          pdf: { encrypted: result.encrypted, pageCount: result.pageCount },
        });
      } else if (accept === 'video') {
        const { checkVideo } = await import('../checks/check-video');
        const result = await checkVideo(file);
        if (!result.ok) return setProblem(result.reason as ClientReason);
        focusPreview.current = true;
        await onFile(file, { originalName: chosen.name, fromCamera });
      } else {
        const { checkImage } = await import('../checks/check-image');
        const result = await checkImage(file, {
          kind: checkKind,
          ...(otherSide ? { otherSide } : {}),
          ...(pdf417 ? { pdf417 } : {}),
          ...(mrz ? { mrz } : {}),
          ...(claim ? { claim } : {}),
          // A camera shot was measured from the frame it was encoded from: not decoded again.
          ...(measured ? { measured } : {}),
        });
        if (!result.ok) {
          if (result.reason === 'client.expiredDocument') setExpiredOn(result.expiryDate);
          onRefused?.(result.reason);
          return setProblem(result.reason);
        }
        focusPreview.current = true;
        await onFile(result.file, { originalName: chosen.name, phash: result.phash, fromCamera });
      }
    } catch {
      setProblem(accept === 'pdf' ? 'client.pdfUnreadable' : 'client.unreadable');
    } finally {
      setBusy(false);
    }
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void take(file);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) void take(file);
  }

  const onUnavailable = (reason: 'denied' | 'missing' | 'error') => {
    setCameraState(reason);
    fileInput.current?.focus();
  };
  const onCaptured = (file: File, measured?: ImageMetrics) => {
    if (camera === 'video') {
      setCameraState('closed');
      void take(file, true);
      return;
    }
    setShot({ file, url: URL.createObjectURL(file), ...(measured ? { measured } : {}) });
    setCameraState('confirm');
  };
  const closeCamera = () => {
    setCameraState('closed');
    region.current?.querySelector<HTMLElement>('.tile-camera')?.focus();
  };

  const uploadLabel = {
    image: t('capture.uploadPhoto'),
    video: t('capture.uploadVideo'),
    pdf: t('capture.uploadPdf'),
    'image-or-pdf': t('capture.uploadImageOrPdf'),
  }[accept];
  const cameraLabel =
    camera === 'video' ? t('capture.recordVideo') : value ? t('capture.retakePhoto') : t('capture.takePhoto');
  const tips =
    camera === 'video' || (camera && camera.guide === 'face')
      ? (['faceLight', 'faceAlone', 'faceNothing'] as const)
      : (['docFlat', 'docCorners', 'docGlare'] as const);

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
      {camera && cameraState === 'tips' && (
        <div className="capture-tips" ref={sheet}>
          <h3>{t('capture.tipsTitle')}</h3>
          <ul className="check-list">
            {tips.map((tip) => (
              <li key={tip}>{t(`capture.tips.${tip}`)}</li>
            ))}
          </ul>
          <div className="actions">
            <button type="button" onClick={() => setCameraState('open')}>
              {t('capture.openCamera')}
            </button>
            <button type="button" className="secondary" onClick={closeCamera}>
              {t('capture.cancel')}
            </button>
          </div>
        </div>
      )}
      {camera && cameraState === 'open' && (
        <div className="camera-sheet">
          <Suspense fallback={<p aria-live="polite">{t('capture.cameraStarting')}</p>}>
            {camera === 'video' ? (
              <VideoRecorder
                seconds={3}
                {...(challenge ? { challenge } : {})}
                onRecorded={onCaptured}
                onUnavailable={onUnavailable}
              />
            ) : (
              <CameraCapture
                facing={camera.facing}
                guide={camera.guide}
                reads={readsOnCamera}
                onCapture={onCaptured}
                onUnavailable={onUnavailable}
              />
            )}
            <button type="button" className="secondary" onClick={closeCamera}>
              {t('capture.closeCamera')}
            </button>
          </Suspense>
        </div>
      )}
      {cameraState === 'confirm' && shot && (
        <div className="camera-sheet camera-confirm" ref={sheet}>
          <img src={shot.url} alt={t('capture.shotAlt', { label })} className="camera-shot" />
          <p>{t('capture.confirmHint')}</p>
          <div className="actions">
            <button
              type="button"
              onClick={() => {
                setCameraState('closed');
                void take(shot.file, true, shot.measured);
              }}
            >
              {t('capture.usePhoto')}
            </button>
            <button type="button" className="secondary" onClick={() => setCameraState('open')}>
              {t('capture.retakeShot')}
            </button>
          </div>
        </div>
      )}
      {camera && (cameraState === 'denied' || cameraState === 'missing' || cameraState === 'error') && (
        <p role="alert" className="notice">
          {t(`capture.camera.${cameraState}`)}
        </p>
      )}
      <div
        className={`capture-tiles${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          if (!dragging) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
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
        <div className={`tile tile-upload${busy ? ' disabled' : ''}`}>
          <input
            ref={fileInput}
            id={inputId}
            className="tile-input"
            type="file"
            accept={converts ? `${acceptAttribute[accept]},${convertibleAccept}` : acceptAttribute[accept]}
            onChange={onChange}
            disabled={busy}
            aria-describedby={canDrag ? hintId : undefined}
          />
          <label htmlFor={inputId}>
            <span className="tile-icon" aria-hidden="true">
              ⇪
            </span>
            {uploadLabel}
          </label>
          {canDrag && (
            <span id={hintId} className="tile-hint">
              {t('capture.dropHint')}
            </span>
          )}
        </div>
      </div>
      {busy && (
        <p aria-live="polite" className="muted">
          {t('capture.checking')}
        </p>
      )}
      {problem && (
        <ProblemMessage
          code={problem}
          {...(expiredOn ? { values: { date: formatLongDate(expiredOn, language) } } : {})}
        />
      )}
    </section>
  );
}
