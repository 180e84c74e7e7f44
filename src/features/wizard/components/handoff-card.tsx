import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { HandoffPhase } from '../hooks/use-handoff';

type Props = {
  handoff: HandoffPhase;
  onShow: () => void;
  onHide: () => void;
};

/** "Continue on your phone": a QR code that opens this same verification on a phone. */
export function HandoffCard({ handoff, onShow, onHide }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const claimed = handoff.phase === 'shown' && handoff.state?.claimed;
  const card = useRef<HTMLElement>(null);
  const shown = handoff.phase === 'shown';
  // The code, its link, expiry and "Hide" grow the card below the fold on a laptop: brought into view.
  useEffect(() => {
    if (shown) card.current?.scrollIntoView?.({ block: 'nearest' });
  }, [shown]);
  return (
    <section ref={card} className="handoff-card" aria-labelledby="handoff-title">
      <h2 id="handoff-title">{t('handoff.title')}</h2>
      {handoff.phase !== 'shown' && <p className="muted">{t('handoff.hint')}</p>}
      {(handoff.phase === 'idle' || handoff.phase === 'failed') && (
        <div className="actions">
          <button type="button" className="secondary" onClick={onShow}>
            {t('handoff.show')}
          </button>
        </div>
      )}
      {handoff.phase === 'creating' && <p role="status">{t('handoff.creating')}</p>}
      {handoff.phase === 'failed' && (
        <p role="alert" className="error">
          {t('handoff.failed')}
        </p>
      )}
      {handoff.phase === 'shown' && (
        <>
          {claimed ? (
            <p role="status" className="ok">
              {t('handoff.claimed')}
            </p>
          ) : (
            <>
              <p>{t('handoff.scan')}</p>
              {handoff.qr && (
                <img
                  className="handoff-qr"
                  src={handoff.qr}
                  width={200}
                  height={200}
                  alt={t('handoff.qrAlt')}
                />
              )}
              <p className="muted">
                {t('handoff.orOpen')} <a href={handoff.handoff.url}>{handoff.handoff.url}</a>
              </p>
              <p className="muted" role="status">
                {t('handoff.expires', {
                  time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(
                    new Date(handoff.handoff.expiresAt),
                  ),
                })}
              </p>
            </>
          )}
          <div className="actions">
            <button type="button" className="secondary" onClick={onHide}>
              {claimed ? t('handoff.continueHere') : t('handoff.hide')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
