import { useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { ImageMetrics } from '@/checks/image/image-metrics';
import { captureFrame } from '../checks/photo-pipeline';
import { CAPTURE_NS } from './capture-i18n';
import type { UnavailableReason } from './media-stream';
import { useCameraGuide, type CameraGuideState, type DocumentReads } from './use-camera-guide';
import type { CodeState } from './document-guide';
import { useDocumentLook, type DocumentLookState } from './use-document-look';
import { useMediaStream } from './use-media-stream';
import './capture.css';

type Props = {
  /** 'environment' (rear) for documents, 'user' (front) for selfies. */
  facing: 'environment' | 'user';
  guide: 'document' | 'face';
  /** The JPEG taken and its metrics, measured from the same frame (checkImage's `measured`). */
  onCapture: (file: File, metrics: ImageMetrics) => void;
  onUnavailable: (reason: UnavailableReason) => void;
  /** What a document side must show (barcode, MRZ): the guide says when it can be read. */
  reads?: DocumentReads;
};

const NO_READS: DocumentReads = {};

/** The guide's message key, and whether it is good to go. */
function guideMessage(guide: NonNullable<CameraGuideState>, reads: DocumentReads) {
  if (guide.kind === 'face') return { key: `camera.face.${guide.state}`, ok: guide.state === 'ready' };
  if (guide.state === 'notReadable') return { key: codeNotReadableKey(reads), ok: false };
  return { key: `camera.document.${guide.state}`, ok: guide.state === 'readable' };
}

const codeNotReadableKey = (reads: DocumentReads) =>
  reads.pdf417 ? 'camera.document.barcodeNotReadable' : 'camera.document.mrzNotReadable';

/** What the code readers last said, for the document look's rule (`none`: the side shows no code). */
function codeState(guide: CameraGuideState): CodeState {
  return guide?.kind === 'document' ? guide.state : 'none';
}

/**
 * The one line of advice. The document look's rule (`adviseOn`) decides it, with what the code
 * readers (barcode, zone) last said, and the same advice decides the automatic photo: the code's
 * message comes only once the document is large enough for it to be read, and "can be read" only
 * when the photo is about to take itself. Without the look (no worker), the readers' word alone.
 */
function statusMessage(
  look: DocumentLookState | null,
  guide: CameraGuideState,
  reads: DocumentReads,
): { key: string; ok: boolean } | null {
  if (!look) return guide && guideMessage(guide, reads);
  switch (look.advice) {
    case 'codeNotReadable':
      return { key: codeNotReadableKey(reads), ok: false };
    case 'codeReading':
      return { key: 'camera.look.codeReading', ok: false };
    case 'holdStill':
      return guide?.kind === 'document'
        ? { key: 'camera.document.readable', ok: true }
        : { key: 'camera.look.holdStill', ok: true };
    default:
      return { key: `camera.look.${look.advice}`, ok: look.advice === 'taken' };
  }
}

/** The found document's outline over the preview (the video is shown as `object-fit: cover`). */
function DocumentOutline({ look, ok }: { look: DocumentLookState; ok: boolean }) {
  if (!look.quad) return null;
  return (
    <svg
      className="camera-outline"
      viewBox={`0 0 ${look.width} ${look.height}`}
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
    >
      <polygon
        className={ok ? 'camera-outline-ok' : 'camera-outline-warn'}
        points={look.quad.map((p) => `${p.x},${p.y}`).join(' ')}
      />
    </svg>
  );
}

/**
 * Live camera with a frame guide and a button that takes a full-resolution JPEG snapshot: the
 * video's frame goes straight to the photo worker, which encodes it and measures it in one go.
 */
export function CameraCapture({ facing, guide, onCapture, onUnavailable, reads = NO_READS }: Props) {
  const { t } = useTranslation(CAPTURE_NS);
  // 1920×1080 ideal: every camera that can gives at least 600 px on the short side, as the service needs.
  const { videoRef, stream } = useMediaStream(
    [
      {
        audio: false,
        video: { facingMode: { ideal: facing }, width: { ideal: 1920 }, height: { ideal: 1080 } },
      },
    ],
    onUnavailable,
  );
  const [taking, setTaking] = useState(false);
  const takingRef = useRef(false);
  // The shutter waits for the stream's first frame: pressed before it, there would be nothing to take.
  const [framedStream, setFramedStream] = useState<MediaStream | null>(null);
  const hasFrame = !!stream && framedStream === stream;
  const guideState = useCameraGuide(videoRef, !!stream, guide, reads);
  // The document camera looks for the document itself and takes the photo when it is steady,
  // and, where the side must show a code, once the readers have read it (else it would be refused):
  // the look's rule weighs the readers' word, so what it says and what it takes never differ.
  const look = useDocumentLook(
    videoRef,
    guide === 'document',
    !!stream,
    () => codeState(guideState),
    () => {
      if (takingRef.current) return false;
      void takePhoto();
      return true;
    },
  );
  const message = statusMessage(look, guideState, reads);

  async function takePhoto() {
    const video = videoRef.current;
    if (!video || !video.videoWidth || takingRef.current) return;
    takingRef.current = true;
    setTaking(true);
    try {
      // The photo is not mirrored (only the front camera's preview is, for comfort).
      const name = `${guide === 'face' ? 'selfie' : 'document'}-${Date.now()}.jpg`;
      const shot = await captureFrame(video, name);
      onCapture(shot.file, shot.metrics);
    } catch {
      onUnavailable('error');
    } finally {
      takingRef.current = false;
      setTaking(false);
    }
  }

  return (
    <section className="camera-capture" aria-label={t('camera.region')}>
      <div className={`camera-frame${facing === 'user' ? ' camera-mirrored' : ''}`}>
        <video
          ref={videoRef}
          className="camera-video"
          aria-label={t('camera.preview')}
          playsInline
          muted
          autoPlay
          onLoadedData={(event) => setFramedStream(event.currentTarget.srcObject as MediaStream | null)}
        />
        <div
          className={`camera-guide camera-guide-${guide}${message ? (message.ok ? ' camera-guide-ok' : ' camera-guide-warn') : ''}`}
          aria-hidden="true"
        />
        {look && <DocumentOutline look={look} ok={!!message?.ok} />}
      </div>
      <p className="camera-hint">{guide === 'face' ? t('camera.guideFace') : t('camera.guideDocument')}</p>
      {/* Advice as the frames change, read out when it changes; the shutter stays available. */}
      <p
        className={`camera-status${message ? (message.ok ? ' camera-status-ok' : ' camera-status-warn') : ''}`}
        role="status"
      >
        {stream && message && (
          <>
            {/* The sign is for the eye; a screen reader reads the advice alone. */}
            <span aria-hidden="true">{message.ok ? '✓ ' : '! '}</span>
            {t(message.key)}
          </>
        )}
      </p>
      {!stream && <p aria-live="polite">{t('camera.starting')}</p>}
      <button
        type="button"
        className="camera-shutter"
        onClick={() => void takePhoto()}
        disabled={!hasFrame || taking}
      >
        {taking ? t('camera.taking') : t('camera.takePhoto')}
      </button>
    </section>
  );
}
