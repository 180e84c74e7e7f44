import { useEffect, useState } from 'react';
import { setLanguage, useTranslation } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { Link } from '@/lib/link';
import { navigate } from '@/lib/router';
import type { ClaimedHandoff } from '@/shared/contract/bff-api';
import type { DocumentType } from '@/shared/flow';
import '../lib/translations';
import { claimHandoff } from '../api/wizard-api';
import * as storage from '../lib/storage';
import { documentStepKey } from '../lib/steps';
import { freshWizardState, type WizardState } from '../lib/wizard-model';

/**
 * The wizard as the computer left it: the person agreed there (the verification exists only
 * since), so the phone opens on the first step, with the documents and countries chosen there.
 */
function handedOverState(
  flowId: string,
  verification: ClaimedHandoff['verification'],
  carry: ClaimedHandoff['carry'],
): WizardState {
  const fresh = freshWizardState(flowId, verification);
  if (!carry) return fresh;
  const captures: WizardState['captures'] = {};
  for (const { group, type, country, region } of carry.documents)
    captures[documentStepKey(group)] = { kind: 'document', type: type as DocumentType, country, region };
  return { ...fresh, consentedAt: carry.consentedAt, screen: 'steps', captures };
}

// One claim per token and page load (StrictMode runs effects twice; a token works once).
const claims = new Map<string, ReturnType<typeof claimHandoff>>();

/**
 * The phone's side of a handoff (/handoff/:token): the token binds this browser to the desktop's
 * verification, whose wizard then starts here on the same verification.
 */
export default function HandoffPage({ token }: { token: string }) {
  const { t } = useTranslation('wizard');
  const [failed, setFailed] = useState(false);

  usePageTitle(t('handoff.phoneTitle'));

  useEffect(() => {
    let claim = claims.get(token);
    if (!claim) {
      claim = claimHandoff(token);
      claims.set(token, claim);
    }
    let stopped = false;
    claim
      .then(async ({ flowId, verification, carry }) => {
        // The phone goes on in the language the person chose on the first device moments ago.
        if (carry?.language) await setLanguage(carry.language).catch(() => undefined);
        await storage.saveState(flowId, handedOverState(flowId, verification, carry)).catch(() => undefined);
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
