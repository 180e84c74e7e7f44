import { useTranslation } from '@/lib/i18n';
import type { RequestFailure } from '../lib/send-input';

/** A failure of the whole send-input request, with its own explanation and way out. */
export function RequestError({
  failure,
  onRetry,
  onRestart,
  onStatus,
}: {
  failure: RequestFailure;
  onRetry: () => void;
  onRestart: () => void;
  onStatus: () => void;
}) {
  const { t } = useTranslation('wizard');
  return (
    <div role="alert" className="problem request-error">
      <p className="problem-title">{t(`requestErrors.${failure}.title`)}</p>
      <p>{t(`requestErrors.${failure}.todo`)}</p>
      <div className="actions">
        {failure === 'session' ? (
          <button type="button" onClick={onRestart}>
            {t('actions.startAgain')}
          </button>
        ) : failure === 'locked' ? (
          <button type="button" onClick={onStatus}>
            {t('actions.seeStatus')}
          </button>
        ) : (
          <button type="button" onClick={onRetry}>
            {t('actions.tryAgain')}
          </button>
        )}
      </div>
    </div>
  );
}
