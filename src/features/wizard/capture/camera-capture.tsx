import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { CAPTURE_NS } from './capture-i18n';
import type { UnavailableReason } from './media-stream';
import { useCameraGuide, type CameraGuideState, type DocumentReads } from './use-camera-guide';
import { useMediaStream } from './use-media-stream';
import './capture.css';

export const SNAPSHOT_QUALITY = 0.92;

type Props = {
  /** 'environment' (rear) for documents, 'user' (front) for selfies. */
  facing: 'environment' | 'user';
  guide: 'document' | 'face';
  onCapture: (file: File) => void;
  onUnavailable: (reason: UnavailableReason) => void;
  /** What a document side must show (barcode, MRZ): the guide says when it can be read. */
  reads?: DocumentReads;
};

const NO_READS: DocumentReads = {};

/** The guide's message key, and whether it is good to go. */
function guideMessage(guide: NonNullable<CameraGuideState>, reads: DocumentReads) {
  if (guide.kind === 'face') return { key: `camera.face.${guide.state}`, ok: guide.state === 'ready' };
  if (guide.state === 'notReadable')
    return {
      key: reads.pdf417 ? 'camera.document.barcodeNotReadable' : 'camera.document.mrzNotReadable',
      ok: false,
    };
  return { key: `camera.document.${guide.state}`, ok: guide.state === 'readable' };
}

/** Live camera with a frame guide and a button that takes a full-resolution JPEG snapshot. */
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
  const guideState = useCameraGuide(videoRef, !!stream, guide, reads);
  const message = guideState && guideMessage(guideState, reads);

  async function takePhoto() {
    const video = videoRef.current;
    if (!video || !video.videoWidth) return;
    setTaking(true);
    try {
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      // The preview of the front camera is mirrored for comfort; the photo is not.
      context.drawImage(video, 0, 0);
      const blob = await new Promise<Blob | null>((resolve) =>
        canvas.toBlob(resolve, 'image/jpeg', SNAPSHOT_QUALITY),
      );
      if (!blob) throw new Error('snapshot failed');
      const name = `${guide === 'face' ? 'selfie' : 'document'}-${Date.now()}.jpg`;
      onCapture(new File([blob], name, { type: 'image/jpeg' }));
    } catch {
      onUnavailable('error');
    } finally {
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
        />
        <div
          className={`camera-guide camera-guide-${guide}${message ? (message.ok ? ' camera-guide-ok' : ' camera-guide-warn') : ''}`}
          aria-hidden="true"
        />
      </div>
      <p className="camera-hint">{guide === 'face' ? t('camera.guideFace') : t('camera.guideDocument')}</p>
      {/* Advice as the frames change, read out when it changes; the shutter stays available. */}
      <p
        className={`camera-status${message ? (message.ok ? ' camera-status-ok' : ' camera-status-warn') : ''}`}
        role="status"
      >
        {stream && message ? t(message.key) : ''}
      </p>
      {!stream && <p aria-live="polite">{t('camera.starting')}</p>}
      <button
        type="button"
        className="camera-shutter"
        onClick={() => void takePhoto()}
        disabled={!stream || taking}
      >
        {taking ? t('camera.taking') : t('camera.takePhoto')}
      </button>
    </section>
  );
}
