import { useTranslation } from '@/lib/i18n';
import { useVerificationStatus } from '../hooks/use-verification-status';

const icons = { waiting: '…', ok: '✓', attention: '!' } as const;

/**
 * The end: a clear state (icon, live status) and what happens next. The service's internal
 * checks are staff business and are not listed here.
 */
export function DoneScreen({
  verificationId,
  showDecision,
  onRestart,
}: {
  verificationId: string;
  /** The flow's `showDecision`: otherwise a final status reads "received" whatever it is. */
  showDecision: boolean;
  onRestart: () => void;
}) {
  const { t } = useTranslation('wizard');
  const { status, failed, final } = useVerificationStatus(verificationId);
  const value = status?.status;
  const shown = final && !showDecision ? 'received' : value;
  const tone =
    shown === 'verified' || shown === 'received'
      ? 'ok'
      : shown === 'rejected' || shown === 'reviewNeeded'
        ? 'attention'
        : 'waiting';
  return (
    <div className="stack">
      <div className="done-state">
        <span className={`done-icon ${tone}`} aria-hidden="true">
          {icons[tone]}
        </span>
        <div>
          <p className="ok">{t('done.accepted')}</p>
          <p role="status" aria-live="polite" data-status={value ?? ''}>
            <strong>{shown ? t(`status.${shown}`) : t('done.statusLoading')}</strong>
          </p>
          {!final && status && <p className="muted">{t('done.following')}</p>}
          {failed && <p className="error">{t('done.statusUnavailable')}</p>}
        </div>
      </div>
      <section aria-labelledby="next-title">
        <h2 id="next-title">{t('done.nextTitle')}</h2>
        <p>{t(`done.next.${shown ?? 'running'}`)}</p>
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
