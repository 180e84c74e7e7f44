import { useTranslation } from '@/lib/i18n';
import { errorMessage } from '../lib/error-message';

export function Loading() {
  const { t } = useTranslation('console');
  return (
    <p role="status" aria-live="polite">
      {t('common.loading')}
    </p>
  );
}

export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('console');
  return (
    <div role="alert" className="error-box">
      <p>{t('common.loadFailed', { message: errorMessage(error) })}</p>
      {onRetry && (
        <button type="button" className="secondary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
