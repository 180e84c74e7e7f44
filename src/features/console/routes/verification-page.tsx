import { useMemo } from 'react';
import { planFlow } from '@/shared/flow-plan';
import { useTranslation } from '@/lib/i18n';
import { ApiError } from '@/lib/api-client';
import { ConsoleLink } from '../components/console-link';
import { ReviewActions } from '../components/review-actions';
import { ReviewHistory } from '../components/review-history';
import { LoadError, Loading } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { KeyValueList, KvRow, MediaLinks, Unknown } from '../components/value-view';
import {
  BankSection,
  ComputedSection,
  DetailCard,
  DocumentsSection,
  EventsSection,
  InputsSection,
  RawData,
  StepsSection,
} from '../components/verification-sections';
import { useFlows, useVerification } from '../hooks/use-console-data';
import { formatDate, formatDateTime, humanizeKey } from '../lib/format';
import { toVerificationView } from '../lib/verification-view';

export function VerificationPage({ id }: { id: string }) {
  const { t, i18n } = useTranslation('console');
  const query = useVerification(id);
  const view = useMemo(() => toVerificationView(query.data?.data), [query.data]);
  const summary = query.data?.summary;
  const mediaLinks = useMemo(() => new Set(query.data?.media), [query.data]);
  const status = view?.status ?? summary?.status ?? null;
  // The flow's field definitions give the answers their labels (in the page's language) and
  // option labels; without them the field's name is made readable.
  const flowId = view?.flow?.id ?? summary?.flowId;
  const [flowQuery] = useFlows(flowId ? [flowId] : []);
  const language = i18n.language.slice(0, 2) as 'en' | 'es' | 'pt';
  const definitions = useMemo(() => {
    const flow = flowQuery?.data;
    const fields = flow?.merits.flatMap((m) => (m.type === 'custom-fields' ? m.fields : [])) ?? [];
    const texts = flow?.translations?.[language]?.fields ?? {};
    return new Map(
      fields.map((field) => [
        field.name,
        {
          label: texts[field.name]?.label ?? field.label ?? humanizeKey(field.name),
          display: (value: string) => {
            if (field.type === 'checkbox') return value === 'true' ? t('common.yes') : t('common.no');
            if (field.type === 'select')
              return (
                texts[field.name]?.options?.[value] ??
                field.options?.find((o) => o.value === value)?.label ??
                value
              );
            if (field.type === 'date') return formatDate(value, i18n.language);
            return value;
          },
        },
      ]),
    );
  }, [flowQuery?.data, language, t, i18n.language]);

  const customDocumentNames = useMemo(() => {
    const flow = flowQuery?.data;
    if (!flow) return new Map<number, string>();
    const texts = flow.translations?.[language]?.documents ?? {};
    return new Map(
      planFlow(flow).documents.flatMap((d) =>
        d.kind === 'custom' && (texts[d.doc.type] ?? d.doc.name)
          ? [[d.group, texts[d.doc.type] ?? d.doc.name!] as const]
          : [],
      ),
    );
  }, [flowQuery?.data, language]);

  return (
    <section aria-labelledby="console-verification-title" className="verification">
      <p>
        <ConsoleLink href="/console/verifications">{t('detail.back')}</ConsoleLink>
      </p>
      <h1 id="console-verification-title">
        {t('detail.title')} <code>{id}</code>
      </h1>
      {query.isPending && <Loading />}
      {query.isError &&
        (query.error instanceof ApiError && query.error.status === 404 ? (
          <p role="alert">{t('detail.notFound')}</p>
        ) : (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ))}
      {query.data && (
        <MediaLinks.Provider value={mediaLinks}>
          <DetailCard id="detail-summary" title={t('detail.summary')}>
            <dl className="kv">
              <KvRow label={t('detail.status')}>
                {status ? <StatusBadge status={status} /> : <Unknown />}
              </KvRow>
              <KvRow label={t('detail.flow')}>
                {view?.flow?.name ?? summary?.flowName ?? summary?.flowId ?? <Unknown />}
              </KvRow>
              <KvRow label={t('detail.identity')}>
                {summary?.identity ? <code>{summary.identity}</code> : <Unknown />}
              </KvRow>
              <KvRow label={t('detail.created')}>
                {formatDateTime(summary?.createdAt, i18n.language) ?? <Unknown />}
              </KvRow>
              <KvRow label={t('detail.updated')}>
                {formatDateTime(summary?.updatedAt, i18n.language) ?? <Unknown />}
              </KvRow>
              {/* The retention sweep deletes the BFF's copy then (RETENTION_DAYS after the last change). */}
              <KvRow label={t('detail.deletionDate')}>
                {query.data.deletionDate
                  ? formatDateTime(query.data.deletionDate, i18n.language)
                  : t('detail.keptForever')}
              </KvRow>
              {view?.hasProblem !== null && view?.hasProblem !== undefined && (
                <KvRow label={t('detail.hasProblem')}>
                  {view.hasProblem ? t('common.yes') : t('common.no')}
                </KvRow>
              )}
              {view?.expired !== null && view?.expired !== undefined && (
                <KvRow label={t('detail.expired')}>{view.expired ? t('common.yes') : t('common.no')}</KvRow>
              )}
            </dl>
            {view?.metadata && Object.keys(view.metadata).length > 0 && (
              <>
                <h3>{t('detail.metadata')}</h3>
                <KeyValueList data={view.metadata} />
              </>
            )}
          </DetailCard>
          <InputsSection
            inputs={query.data.inputs}
            documentName={(group) => customDocumentNames.get(group)}
          />
          {view ? (
            <>
              <StepsSection steps={view.steps} />
              <DocumentsSection documents={view.documents} />
              <ComputedSection view={view} />
              {view.customFields.length > 0 && (
                <DetailCard id="detail-custom-fields" title={t('detail.customFields')}>
                  <dl className="kv">
                    {view.customFields.map((field) => {
                      const definition = definitions.get(field.name);
                      return (
                        <KvRow key={field.name} label={definition?.label ?? humanizeKey(field.name)}>
                          {field.value === '' ? (
                            <Unknown />
                          ) : definition ? (
                            definition.display(field.value)
                          ) : (
                            field.value
                          )}
                        </KvRow>
                      );
                    })}
                  </dl>
                </DetailCard>
              )}
              {view.bank && <BankSection bank={view.bank} />}
            </>
          ) : (
            <p className="card">{t('detail.noData')}</p>
          )}
          <ReviewActions
            id={id}
            status={status}
            flow={flowQuery?.data}
            flowPending={flowQuery?.isPending ?? false}
          />
          <ReviewHistory reviews={query.data.reviews} flow={flowQuery?.data} />
          <EventsSection events={query.data.events} />
          <RawData id={id} body={query.data} />
        </MediaLinks.Provider>
      )}
    </section>
  );
}
