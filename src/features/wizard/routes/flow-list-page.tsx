import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { Link } from '@/lib/link';
import type { FlowSummary } from '@/shared/flow';
import '../lib/translations';
import { getFlows } from '../api/wizard-api';

export default function FlowListPage() {
  const { t, i18n } = useTranslation('wizard');
  const nameOf = (flow: FlowSummary) =>
    flow.names?.[i18n.language.slice(0, 2) as keyof NonNullable<FlowSummary['names']>] ?? flow.name;
  const [flows, setFlows] = useState<FlowSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  usePageTitle(t('flows.title'));

  useEffect(() => {
    let cancelled = false;
    getFlows().then(
      (list) => !cancelled && setFlows(list),
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  return (
    <div className="stack">
      <h1>{t('flows.title')}</h1>
      <p>{t('flows.intro')}</p>
      {failed ? (
        <div role="alert" className="problem">
          <p>{t('flows.failed')}</p>
          <button
            type="button"
            onClick={() => {
              setFailed(false);
              setAttempt((a) => a + 1);
            }}
          >
            {t('actions.tryAgain')}
          </button>
        </div>
      ) : !flows ? (
        <p aria-live="polite">{t('flows.loading')}</p>
      ) : (
        <ul className="flow-list">
          {flows.map((flow) => (
            <li key={flow.id}>
              <span className="flow-name">{nameOf(flow)}</span>
              <Link
                className="button"
                href={`/verify/${encodeURIComponent(flow.id)}`}
                aria-label={t('flows.startFlow', { flow: nameOf(flow) })}
              >
                {t('flows.start')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
