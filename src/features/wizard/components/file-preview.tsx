import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { formatBytes } from '../lib/format';
import type { StoredFile } from '../lib/wizard-model';

/** A thumbnail (images), or a labelled tile (PDF, video), with the file's name and size. */
export function FilePreview({
  file,
  getBlob,
  label,
}: {
  file: StoredFile;
  getBlob: (key: string) => Promise<Blob | undefined>;
  label: string;
}) {
  const { t, i18n } = useTranslation('wizard');
  const [url, setUrl] = useState<string | null>(null);
  const isImage = file.type.startsWith('image/');
  useEffect(() => {
    if (!isImage) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    void getBlob(file.key).then((blob) => {
      if (!blob || cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file.key, getBlob, isImage]);
  const pdf = file.type === 'application/pdf';
  const kindLabel = pdf ? 'PDF' : file.type.startsWith('video/') ? t('preview.video') : '';
  // What the file is, in words: "PDF, 3 pages"; a camera shot has no name worth showing.
  const description = pdf && file.pages ? t('preview.pdfPages', { count: file.pages }) : null;
  return (
    <figure className="file-preview">
      {isImage && url ? (
        <img src={url} alt={label} width={96} height={72} />
      ) : (
        <span className="file-tile" aria-hidden="true">
          {kindLabel || '…'}
        </span>
      )}
      <figcaption>
        <span className="file-label">{label}</span>
        <span className="file-name">{file.fromCamera ? t('preview.cameraShot') : file.name}</span>
        <span className="file-size">
          {description ? `${description} · ` : ''}
          {formatBytes(file.size, i18n.language)}
        </span>
      </figcaption>
    </figure>
  );
}
