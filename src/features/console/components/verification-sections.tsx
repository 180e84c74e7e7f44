import { useMemo, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n';
import { documentType } from '@/shared/flow';
import type { InputState, StoredEvent } from '@/shared/contract/bff-api';
import { countryName, formatDate, formatDateTime, humanizeKey } from '../lib/format';
import type { BankView, DocumentView, StepView, VerificationView } from '../lib/verification-view';
import { DataTable } from './data-table';
import { KeyValueList, KvRow, MediaView, RecordTable, Unknown, ValueView } from './value-view';

/** A service error code in words, in the page's language; an unknown code is shown as it is. */
export function useCodeText() {
  const { t } = useTranslation('console');
  return (code: string, fallback?: string) =>
    t(`errorCodes.${code}`, { defaultValue: fallback || t('detail.codeUnknown', { code }) });
}

function useLabels() {
  const { t, i18n } = useTranslation('console');
  return {
    t,
    language: i18n.language,
    stepName: (id: string) => t(`steps.${id}`, { defaultValue: humanizeKey(id) || t('common.unknown') }),
    docType: (type: string) =>
      t(`documentTypes.${type}`, { defaultValue: humanizeKey(type.replace(/^custom-/, '')) }),
    country: (code: string | null) => (code ? countryName(code, i18n.language) : t('common.unknown')),
  };
}

/** A titled card of the verification page; its heading names the region for screen readers. */
export function DetailCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function StepStatus({ step }: { step: StepView }) {
  const { t } = useTranslation('console');
  const codeText = useCodeText();
  // A check that could not run, or that this service does not have, is never shown as passed.
  if (step.error?.code.endsWith('.notChecked')) {
    return (
      <p className="error">
        {t('detail.stepNotChecked', {
          what: codeText(step.error.code, ''),
          reason: step.error.message,
        })}
      </p>
    );
  }
  if (step.error?.code.endsWith('.notPerformed')) {
    return (
      <p className="muted">
        {t('detail.stepNotPerformed', { what: codeText(step.error.code, step.error.message) })}
      </p>
    );
  }
  if (step.error) {
    return (
      <p className="error">
        {t('detail.stepFailed', {
          message: codeText(step.error.code, step.error.message),
          code: step.error.code,
        })}
      </p>
    );
  }
  const key =
    step.status === 0 || step.status === 100 || step.status === 200 ? String(step.status) : 'unknown';
  return <p className={step.status === 200 ? 'ok' : 'muted'}>{t(`stepStatus.${key}`)}</p>;
}

function StepCard({ step, level, omit = [] }: { step: StepView; level: 3 | 4; omit?: string[] }) {
  const { stepName } = useLabels();
  const Heading = level === 3 ? 'h3' : 'h4';
  // `performed: false` is said by the status line already.
  const data = step.data
    ? Object.fromEntries(
        Object.entries(step.data).filter(([key]) => !omit.includes(key) && key !== 'performed'),
      )
    : {};
  return (
    <article className="step" aria-label={stepName(step.id)}>
      <Heading>{stepName(step.id)}</Heading>
      <StepStatus step={step} />
      {Object.keys(data).length > 0 && (
        // The face match's score and pass mark are similarities in percent.
        <KeyValueList data={data} context={step.id === 'facematch' ? { score: 'percent' } : undefined} />
      )}
    </article>
  );
}

export function StepsSection({ steps }: { steps: StepView[] }) {
  const { t } = useTranslation('console');
  return (
    <DetailCard id="detail-steps" title={t('detail.steps')}>
      {steps.length === 0 ? (
        <p>{t('detail.noSteps')}</p>
      ) : (
        <div className="step-grid">
          {steps.map((s, i) => (
            <StepCard key={i} step={s} level={3} />
          ))}
        </div>
      )}
    </DetailCard>
  );
}

function DocumentCard({ doc, index }: { doc: DocumentView; index: number }) {
  const { t, docType, country, language } = useLabels();
  // Custom documents have no country.
  const title = doc.country ? `${docType(doc.type)} · ${country(doc.country)}` : docType(doc.type);
  const headingId = `detail-document-${index}`;
  // An identity document's two photos are its front and back (a custom document's are its pages).
  const sided = doc.photos.length === 2 && documentType.safeParse(doc.type).success;
  return (
    <article className="document" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {doc.region && (
        <p>
          {t('detail.region')}: {doc.region}
        </p>
      )}
      <h4>{t('detail.photos')}</h4>
      {doc.photos.length === 0 ? (
        <p>{t('detail.noPhotos')}</p>
      ) : (
        <div className="photos">
          {doc.photos.map((src, i) => (
            <MediaView
              key={src}
              src={src}
              label={
                sided
                  ? t(i === 0 ? 'detail.photoFront' : 'detail.photoBack', { document: docType(doc.type) })
                  : t('detail.photoAlt', { document: docType(doc.type), n: i + 1, count: doc.photos.length })
              }
            />
          ))}
        </div>
      )}
      <h4 id={`${headingId}-fields`}>{t('detail.fields')}</h4>
      {doc.fields.length === 0 ? (
        <p>{t('detail.noFields')}</p>
      ) : (
        <div role="group" aria-labelledby={`${headingId}-fields`}>
          <dl className="kv">
            {doc.fields.map((field) => (
              <KvRow
                key={field.key}
                label={t(`fields.${field.key}`, { defaultValue: field.label ?? humanizeKey(field.key) })}
              >
                {field.value === null || field.value === '' ? (
                  <Unknown />
                ) : field.format === 'date' && typeof field.value === 'string' ? (
                  <time dateTime={field.value}>{formatDate(field.value, language)}</time>
                ) : (
                  String(field.value)
                )}
              </KvRow>
            ))}
          </dl>
        </div>
      )}
      <h4>{t('detail.checks')}</h4>
      {doc.steps.length === 0 ? (
        <p>{t('detail.noChecks')}</p>
      ) : (
        <div className="checks step-grid">
          {doc.steps.map((step, i) => (
            // document-reading repeats the fields already listed above.
            <StepCard
              key={i}
              step={step}
              level={4}
              omit={step.id === 'document-reading' ? doc.fields.map((f) => f.key) : []}
            />
          ))}
        </div>
      )}
    </article>
  );
}

export function DocumentsSection({ documents }: { documents: DocumentView[] }) {
  const { t } = useTranslation('console');
  return (
    <DetailCard id="detail-documents" title={t('detail.documents')}>
      {documents.length === 0 ? (
        <p>{t('detail.noDocuments')}</p>
      ) : (
        documents.map((doc, i) => <DocumentCard key={i} doc={doc} index={i} />)
      )}
    </DetailCard>
  );
}

export function ComputedSection({ view }: { view: VerificationView }) {
  const { t, docType } = useLabels();
  return (
    <DetailCard id="detail-computed" title={t('detail.computed')}>
      <dl className="kv">
        <KvRow label={t('detail.age')}>
          {typeof view.age === 'number' ? t('detail.ageYears', { count: view.age }) : <Unknown />}
        </KvRow>
        {(view.documentExpiry ?? []).map((entry) => (
          <KvRow key={entry.type} label={t('detail.expiryOf', { document: docType(entry.type) })}>
            {entry.expired === null ? (
              <Unknown />
            ) : entry.expired ? (
              <span className="error">{t('detail.expiredYes')}</span>
            ) : (
              <span className="ok">{t('detail.expiredNo')}</span>
            )}
          </KvRow>
        ))}
        {!view.documentExpiry?.length && (
          <KvRow label={t('detail.expiry')}>
            <Unknown />
          </KvRow>
        )}
      </dl>
    </DetailCard>
  );
}

export function BankSection({ bank }: { bank: BankView }) {
  const { t } = useTranslation('console');
  // The balances are in the statement's account currency.
  const currency = bank.accounts.find((a) => typeof a.currency === 'string')?.currency;
  const context = { currency: typeof currency === 'string' ? currency : null };
  return (
    <DetailCard id="detail-bank" title={t('detail.bank')}>
      <h3>{t('detail.accounts')}</h3>
      {bank.accounts.length ? (
        <RecordTable rows={bank.accounts} caption={t('detail.accountsCaption')} context={context} />
      ) : (
        <p>{t('common.none')}</p>
      )}
      <h3>{t('detail.balances')}</h3>
      <dl className="kv">
        <KvRow label={t('detail.currentBalance')}>
          <ValueView name="current_balance" value={bank.currentBalance} context={context} />
        </KvRow>
        <KvRow label={t('detail.availableBalance')}>
          <ValueView name="available_balance" value={bank.availableBalance} context={context} />
        </KvRow>
      </dl>
      <h3>{t('detail.holder')}</h3>
      {bank.holder ? <KeyValueList data={bank.holder} /> : <Unknown />}
      <h3>{t('detail.transactions')}</h3>
      {bank.transactions.length ? (
        <RecordTable rows={bank.transactions} caption={t('detail.transactionsCaption')} context={context} />
      ) : (
        <p>{t('common.none')}</p>
      )}
    </DetailCard>
  );
}

export function EventsSection({ events }: { events: StoredEvent[] }) {
  const { t, language } = useLabels();
  return (
    <DetailCard id="detail-events" title={t('detail.events')}>
      {events.length === 0 ? (
        <p>{t('detail.noEvents')}</p>
      ) : (
        <DataTable
          caption={t('detail.eventsCaption')}
          columns={[
            t('detail.eventColumns.time'),
            t('detail.eventColumns.event'),
            t('detail.eventColumns.signature'),
            t('detail.eventColumns.body'),
          ]}
        >
          {events.map((event) => (
            <tr key={event.id}>
              <td>
                <time dateTime={event.receivedAt}>{formatDateTime(event.receivedAt, language)}</time>
              </td>
              <th scope="row">{t(`events.${event.eventName}`, { defaultValue: event.eventName })}</th>
              <td className={event.signatureValid ? 'ok' : 'error'}>
                {event.signatureValid ? t('detail.signatureValid') : t('detail.signatureInvalid')}
              </td>
              <td>
                <details>
                  <summary>{t('detail.eventBody')}</summary>
                  <pre>{JSON.stringify(event.body, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </DetailCard>
  );
}

/** The raw data for the curious, to read in place or download as a file. */
export function RawData({ id, body }: { id: string; body: unknown }) {
  const { t } = useTranslation('console');
  const json = useMemo(() => JSON.stringify(body, null, 2), [body]);
  const download = () => {
    // The blob URL lives only for the click, so a long-open page holds no copies of old data.
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `verification-${id}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <DetailCard id="detail-raw" title={t('detail.rawTitle')}>
      <details>
        <summary>{t('detail.raw')}</summary>
        <pre className="raw">{json}</pre>
      </details>
      <button type="button" className="secondary" onClick={download}>
        {t('detail.download')}
      </button>
    </DetailCard>
  );
}

/** Each input with its status and why: not sent, refused (with the code in words), waiting for the back side… */
export function InputsSection({
  inputs,
  documentName,
}: {
  inputs: InputState[];
  /** A custom document's name from the flow, by group. */
  documentName?: (group: number) => string | undefined;
}) {
  const { t, docType, stepName, language } = useLabels();
  const codeText = useCodeText();
  if (inputs.length === 0) return null;
  const list = (items: string[]) => new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
  // A check that could not run is named by its step, never by the service's lower-case message.
  const codeReason = (code: string) =>
    code.endsWith('.notChecked')
      ? t('detail.inputNotChecked', { check: stepName(code.slice(0, -'.notChecked'.length)) })
      : codeText(code);
  return (
    <DetailCard id="detail-inputs" title={t('detail.inputs')}>
      <DataTable
        caption={t('detail.inputsCaption')}
        className="inputs-table"
        columns={[t('detail.inputColumns.input'), t('detail.inputColumns.state')]}
      >
        {inputs.map((input, i) => {
          const name = t(`detail.inputNames.${input.input}`);
          const documentLabel =
            (input.group !== undefined ? documentName?.(input.group) : undefined) ??
            (input.documentType ? docType(input.documentType) : undefined);
          const bad = input.state === 'refused' || input.state === 'failed';
          const skipped = input.notPerformed ?? [];
          const reason = input.state === 'checked' && skipped.length ? 'checkedSome' : input.state;
          return (
            <tr key={i}>
              <th scope="row">{documentLabel ? `${name}: ${documentLabel}` : name}</th>
              <td>
                <span className={`badge input-${input.state}`}>{t(`detail.inputState.${input.state}`)}</span>
                <span className={bad ? 'input-reason error' : 'input-reason'}>
                  {input.code ? `${codeReason(input.code)} ` : ''}
                  {t(`detail.inputReason.${reason}`)}
                </span>
                {skipped.length > 0 && (
                  <span className="input-reason muted">
                    {t('detail.inputNotPerformed', { checks: list(skipped.map(stepName)) })}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
    </DetailCard>
  );
}
