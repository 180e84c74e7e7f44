import { useTranslation } from '@/lib/i18n';

export function UploadProgress({ fraction }: { fraction: number }) {
  const { t } = useTranslation('wizard');
  const percent = Math.round(fraction * 100);
  return (
    <div className="upload-progress">
      <div
        role="progressbar"
        aria-label={t('review.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p aria-live="polite">{t('review.progressText', { percent })}</p>
    </div>
  );
}
