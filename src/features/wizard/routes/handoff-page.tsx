import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { Link } from '@/lib/link';
import { navigate } from '@/lib/router';
import '../lib/translations';
import { claimHandoff } from '../api/wizard-api';
import * as storage from '../lib/storage';
import { freshWizardState } from '../lib/wizard-model';

// One claim per token and page load (StrictMode runs effects twice; a token works once).
const claims = new Map<string, ReturnType<typeof claimHandoff>>();

/**
 * The phone's side of a handoff (/handoff/:token): the token binds this browser to the desktop's
 * verification, whose wizard then starts here on the same verification.
 */
export default function HandoffPage({ token }: { token: string }) {
  const { t } = useTranslation('wizard');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    document.title = `${t('handoff.phoneTitle')} · IDV Capture`;
  }, [t]);

  useEffect(() => {
    let claim = claims.get(token);
    if (!claim) {
      claim = claimHandoff(token);
      claims.set(token, claim);
    }
    let stopped = false;
    claim
      .then(async ({ flowId, verification }) => {
        await storage.saveState(flowId, freshWizardState(flowId, verification)).catch(() => undefined);
        if (!stopped) navigate(`/verify/${encodeURIComponent(flowId)}`, { replace: true });
      })
      .catch(() => !stopped && setFailed(true));
    return () => {
      stopped = true;
    };
  }, [token]);

  if (!failed) return <p aria-live="polite">{t('handoff.claiming')}</p>;
  return (
    <div className="stack">
      <h1>{t('handoff.invalidTitle')}</h1>
      <p role="alert">{t('handoff.invalidHint')}</p>
      <Link href="/" className="button secondary">
        {t('backToFlows')}
      </Link>
    </div>
  );
}
