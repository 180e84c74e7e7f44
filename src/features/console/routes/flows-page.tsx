import { Fragment, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n';
import type { Flow, FlowSummary } from '@/shared/flow';
import { ConsoleLink } from '../components/console-link';
import { DataTable } from '../components/data-table';
import { FlowMerits } from '../components/flow-merits';
import { PhoneHandoff } from '../components/phone-handoff';
import { LoadError, Loading } from '../components/query-state';
import { useFlowSummaries, useFlows } from '../hooks/use-console-data';

/** One flow as a table row, with its merits, links and QR code behind a disclosure. */
function FlowRow({ summary, query }: { summary: FlowSummary; query: UseQueryResult<Flow> }) {
  const { t } = useTranslation('console');
  const [open, setOpen] = useState(false);
  const detailsId = `flow-details-${summary.id}`;
  const wizardPath = `/verify/${encodeURIComponent(summary.id)}`;
  return (
    <Fragment>
      <tr className={open ? 'flow-row open' : 'flow-row'}>
        <th scope="row">
          <span className="flow-name">{summary.name}</span>
          <code className="muted flow-id">{summary.id}</code>
          <span className="flow-asks">
            {query.isPending && <Loading />}
            {query.data &&
              (query.data.merits.length
                ? query.data.merits.map((m) => t(`flows.merits.${m.type}`)).join(' · ')
                : t('flows.noMerits'))}
          </span>
          {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
        </th>
        <td>
          <div className="row-actions">
            <a className="button" href={wizardPath} target="_blank" rel="noopener">
              {t('flows.startDemo')}
              <span className="visually-hidden"> {t('flows.newTab', { name: summary.name })}</span>
            </a>
            <button
              type="button"
              className="secondary"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? t('flows.hideDetails') : t('flows.showDetails')}
              <span className="visually-hidden"> {t('flows.forFlow', { name: summary.name })}</span>
            </button>
          </div>
        </td>
      </tr>
      {open && (
        <tr className="flow-details-row">
          <td colSpan={2}>
            <div id={detailsId} role="region" aria-label={t('flows.detailsOf', { name: summary.name })}>
              {query.data?.description && <p>{query.data.description}</p>}
              {query.data && <FlowMerits flow={query.data} />}
              <p>
                <ConsoleLink className="button secondary" href={wizardPath}>
                  {t('flows.startHere')}
                  <span className="visually-hidden"> {t('flows.forFlow', { name: summary.name })}</span>
                </ConsoleLink>
              </p>
              <PhoneHandoff flowId={summary.id} flowName={summary.name} />
            </div>
          </td>
        </tr>
      )}
    </Fragment>
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
      {!!summaries.data?.length && (
        <DataTable
          caption={t('flows.caption')}
          className="flows-table"
          columns={[t('flows.columns.flow'), t('flows.columns.actions')]}
        >
          {summaries.data.map((summary, index) => (
            <FlowRow key={summary.id} summary={summary} query={flows[index]} />
          ))}
        </DataTable>
      )}
    </section>
  );
}
