import { useTranslation } from 'react-i18next';
import type { CreditCheckRecord } from '@/shared/bff-api';
import { formatDateTime } from '../lib/format';
import { KeyValueList } from './value-view';

/** What was asked, in one line: "CUIT 20-12345678-6" or "DNI 12345678 · Ana Pérez". */
function requestLine(record: CreditCheckRecord): string {
  const { cuit, dni, fullName, cpf } = record.request;
  if (typeof cuit === 'string') return `CUIT ${cuit}`;
  if (typeof cpf === 'string') return `CPF ${cpf}`;
  return [typeof dni === 'string' ? `DNI ${dni}` : null, typeof fullName === 'string' ? fullName : null]
    .filter(Boolean)
    .join(' · ');
}

export function CreditCheckCard({
  record,
  headingLevel = 3,
}: {
  record: CreditCheckRecord;
  headingLevel?: 2 | 3;
}) {
  const { t, i18n } = useTranslation('console');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = `credit-check-${record.id}-${headingLevel}`;
  return (
    <article className={`card credit-check credit-${record.status}`} aria-labelledby={headingId}>
      <Heading id={headingId}>
        {t(`creditChecks.country.${record.country}`)}: {requestLine(record)}
      </Heading>
      <p>
        <span className={`badge badge-credit-${record.status}`}>
          {t(`creditChecks.status.${record.status}`)}
        </span>{' '}
        <span className="muted">
          {t('creditChecks.requested', { time: formatDateTime(record.createdAt, i18n.language) })}
          {record.completedAt &&
            ` · ${t('creditChecks.completedAt', { time: formatDateTime(record.completedAt, i18n.language) })}`}
        </span>
      </p>
      {record.status === 'pending' && <p className="muted">{t('creditChecks.waiting')}</p>}
      {record.error && (
        <p className="error">
          {t('creditChecks.error')}: {record.error}
        </p>
      )}
      {record.result && (
        <div className="result">
          <h4>{t('creditChecks.result')}</h4>
          <KeyValueList data={record.result} />
        </div>
      )}
    </article>
  );
}
