import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { CreditCheckCard } from '../components/credit-check-card';
import { ArCreditCheckForm, BrCreditCheckForm } from '../components/credit-check-forms';
import { LoadError, Loading } from '../components/query-state';
import { useCreditChecks } from '../hooks/use-console-data';

function LatestResult({ id, label }: { id: string | null; label: string }) {
  const checks = useCreditChecks();
  const record = id ? checks.data?.find((check) => check.id === id) : undefined;
  return (
    // Announces the pending → completed change without moving focus.
    <div className="latest" role="region" aria-label={label} aria-live="polite">
      {record && <CreditCheckCard record={record} />}
    </div>
  );
}

export function CreditChecksPage() {
  const { t } = useTranslation('console');
  const checks = useCreditChecks();
  const [arId, setArId] = useState<string | null>(null);
  const [brId, setBrId] = useState<string | null>(null);
  const history = (checks.data ?? []).filter((check) => check.id !== arId && check.id !== brId);

  return (
    <section aria-labelledby="console-credit-title">
      <h1 id="console-credit-title">{t('creditChecks.title')}</h1>
      <p>{t('creditChecks.intro')}</p>
      <div className="credit-forms">
        <div className="card">
          <ArCreditCheckForm onCreated={setArId} />
        </div>
        <div className="card">
          <BrCreditCheckForm onCreated={setBrId} />
        </div>
      </div>
      {/* Full width below the forms: results hold nested lists and tables that need the room. */}
      <div className="latest-results">
        <LatestResult id={arId} label={t('creditChecks.ar.latest')} />
        <LatestResult id={brId} label={t('creditChecks.br.latest')} />
      </div>
      <section aria-labelledby="credit-history" className="credit-history">
        <h2 id="credit-history">{t('creditChecks.history')}</h2>
        {checks.isPending && <Loading />}
        {checks.isError && <LoadError error={checks.error} onRetry={() => void checks.refetch()} />}
        {checks.data && history.length === 0 && <p>{t('creditChecks.empty')}</p>}
        {history.map((record) => (
          <CreditCheckCard key={record.id} record={record} folded />
        ))}
      </section>
    </section>
  );
}
