import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';

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
  const message =
    error instanceof ApiError ? error.body.message : error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="error-box">
      <p>{t('common.loadFailed', { message })}</p>
      {onRetry && (
        <button type="button" className="secondary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
