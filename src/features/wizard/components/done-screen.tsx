import { useTranslation } from '@/lib/i18n';
import { useVerificationStatus } from '../hooks/use-verification-status';

export function DoneScreen({ verificationId, onRestart }: { verificationId: string; onRestart: () => void }) {
  const { t } = useTranslation('wizard');
  const { status, failed, final } = useVerificationStatus(verificationId);
  // "liveness", or "national-id:document-reading" for a document's check.
  const checkName = (step: string) => {
    const [document, check] = step.includes(':') ? step.split(':', 2) : [null, step];
    const name = t(`checks.${check}`, { defaultValue: check });
    return document ? `${t(`documentTypes.${document}`, { defaultValue: document })}: ${name}` : name;
  };
  return (
    <div className="stack">
      <p className="ok">{t('done.accepted')}</p>
      <section aria-labelledby="status-title" className="status-panel">
        <h2 id="status-title">{t('done.statusTitle')}</h2>
        <p aria-live="polite" data-status={status?.status ?? ''}>
          {status ? t(`status.${status.status}`) : t('done.statusLoading')}
        </p>
        {!final && status && <p className="muted">{t('done.following')}</p>}
        {failed && <p className="error">{t('done.statusUnavailable')}</p>}
        {status && status.completedSteps.length > 0 && (
          <>
            <h3>{t('done.completedSteps')}</h3>
            <ul>
              {status.completedSteps.map((step) => (
                <li key={step}>{checkName(step)}</li>
              ))}
            </ul>
          </>
        )}
      </section>
      <p className="muted">
        {t('done.reference')} <code>{verificationId}</code>
      </p>
      <div className="actions">
        <button type="button" className="secondary" onClick={onRestart}>
          {t('done.startNew')}
        </button>
      </div>
    </div>
  );
}
