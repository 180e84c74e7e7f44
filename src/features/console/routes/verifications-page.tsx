import { useId } from 'react';
import { useTranslation } from '@/lib/i18n';
import { navigate } from '@/lib/router';
import { identityStatuses } from '@/shared/contract/verification';
import { ConsoleLink } from '../components/console-link';
import { DataTable } from '../components/data-table';
import { LoadError, Loading } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { useFlowSummaries, useVerifications } from '../hooks/use-console-data';
import {
  filterFromSearch,
  filterVerifications,
  searchFromFilter,
  type VerificationFilter,
} from '../lib/collections';
import { formatDateTime } from '../lib/format';

export function VerificationsPage({ search }: { search: string }) {
  const { t, i18n } = useTranslation('console');
  const verifications = useVerifications();
  const flows = useFlowSummaries();
  const filter = filterFromSearch(search);
  // Set by the erasure on the verification's page, which brings the reviewer back here.
  const deleted = new URLSearchParams(search).get('deleted');
  const statusId = useId();
  const flowId = useId();

  const setFilter = (next: Partial<VerificationFilter>) =>
    navigate(`/console/verifications${searchFromFilter({ ...filter, ...next })}`, { replace: true });

  const flowNames = new Map<string, string>();
  for (const flow of flows.data ?? []) flowNames.set(flow.id, flow.name);
  for (const v of verifications.data ?? [])
    if (!flowNames.has(v.flowId)) flowNames.set(v.flowId, v.flowName ?? v.flowId);

  const all = verifications.data ?? [];
  const shown = filterVerifications(all, filter);

  return (
    <section aria-labelledby="console-verifications-title">
      <h1 id="console-verifications-title">{t('verifications.title')}</h1>
      {deleted && (
        <p role="status" className="notice">
          {t('verifications.deleted', { id: deleted })}
        </p>
      )}
      <fieldset className="filters">
        <legend>{t('verifications.filters')}</legend>
        <div className="field">
          <label htmlFor={statusId}>{t('verifications.status')}</label>
          <select id={statusId} value={filter.status} onChange={(e) => setFilter({ status: e.target.value })}>
            <option value="">{t('verifications.allStatuses')}</option>
            {identityStatuses.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={flowId}>{t('verifications.flow')}</label>
          <select id={flowId} value={filter.flowId} onChange={(e) => setFilter({ flowId: e.target.value })}>
            <option value="">{t('verifications.allFlows')}</option>
            {[...flowNames].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
      {verifications.isPending && <Loading />}
      {verifications.isError && (
        <LoadError error={verifications.error} onRetry={() => void verifications.refetch()} />
      )}
      <p role="status" className="muted">
        {verifications.data &&
          (all.length === 0
            ? t('verifications.empty')
            : shown.length === 0
              ? t('verifications.emptyFiltered')
              : t('verifications.count', { count: shown.length, total: all.length }))}
      </p>
      {shown.length > 0 && (
        <DataTable
          className="verifications"
          caption={t('verifications.caption')}
          columns={[
            t('verifications.columns.id'),
            t('verifications.columns.flow'),
            t('verifications.columns.status'),
            t('verifications.columns.created'),
            t('verifications.columns.lastEvent'),
          ]}
        >
          {shown.map((v) => (
            <tr key={v.id}>
              <th scope="row">
                <ConsoleLink href={`/console/verifications/${encodeURIComponent(v.id)}`}>
                  <code>{v.id}</code>
                </ConsoleLink>
              </th>
              <td>{v.flowName ?? v.flowId}</td>
              <td>
                <StatusBadge status={v.status} />
              </td>
              <td>{formatDateTime(v.createdAt, i18n.language)}</td>
              <td>
                {v.lastEvent ? t(`events.${v.lastEvent}`, { defaultValue: v.lastEvent }) : t('common.none')}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
