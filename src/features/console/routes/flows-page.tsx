import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n';
import type { Flow, FlowSummary } from '@/shared/flow';
import { ConsoleLink } from '../components/console-link';
import { FlowMerits } from '../components/flow-merits';
import { PhoneHandoff } from '../components/phone-handoff';
import { LoadError, Loading } from '../components/query-state';
import { useFlowSummaries, useFlows } from '../hooks/use-console-data';

function FlowCard({ summary, query }: { summary: FlowSummary; query: UseQueryResult<Flow> }) {
  const { t } = useTranslation('console');
  const headingId = `flow-${summary.id}`;
  const wizardPath = `/verify/${encodeURIComponent(summary.id)}`;
  return (
    <article className="card flow" aria-labelledby={headingId}>
      <h2 id={headingId}>{summary.name}</h2>
      <p className="muted">
        {t('flows.id')}: <code>{summary.id}</code>
      </p>
      {query.data?.description && <p>{query.data.description}</p>}
      {query.isPending && <Loading />}
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.data && <FlowMerits flow={query.data} />}
      <div className="actions">
        <a className="button" href={wizardPath} target="_blank" rel="noopener">
          {t('flows.startDemo')}
          <span className="visually-hidden"> {t('flows.newTab', { name: summary.name })}</span>
        </a>
        <ConsoleLink className="button secondary" href={wizardPath}>
          {t('flows.startHere')}
          <span className="visually-hidden"> {t('flows.forFlow', { name: summary.name })}</span>
        </ConsoleLink>
      </div>
      <PhoneHandoff flowId={summary.id} flowName={summary.name} />
    </article>
  );
}

export function FlowsPage() {
  const { t } = useTranslation('console');
  const summaries = useFlowSummaries();
  const flows = useFlows(summaries.data?.map((s) => s.id) ?? []);
  return (
    <section aria-labelledby="console-flows-title">
      <h1 id="console-flows-title">{t('flows.title')}</h1>
      <p>{t('flows.intro')}</p>
      {summaries.isPending && <Loading />}
      {summaries.isError && <LoadError error={summaries.error} onRetry={() => void summaries.refetch()} />}
      {summaries.data?.length === 0 && <p>{t('flows.empty')}</p>}
      <div className="console-flows">
        {summaries.data?.map((summary, index) => (
          <FlowCard key={summary.id} summary={summary} query={flows[index]} />
        ))}
      </div>
    </section>
  );
}
