import { useTranslation } from '@/lib/i18n';
import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import { formatDateTime } from '../lib/format';
import { KeyValueList } from './value-view';

// The bureaus' scores run from 300 to 900.
const scoreContext = { score: { max: 900 } };

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
  folded = false,
}: {
  record: CreditCheckRecord;
  /** Older checks keep their result behind a disclosure, so the list stays scannable. */
  folded?: boolean;
}) {
  const { t, i18n } = useTranslation('console');
  const headingId = `credit-check-${record.id}`;
  return (
    <article className={`card credit-check credit-${record.status}`} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {t(`creditChecks.country.${record.country}`)}: {requestLine(record)}
      </h3>
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
      {record.result &&
        (folded ? (
          <details className="result">
            <summary>{t('creditChecks.result')}</summary>
            <KeyValueList data={record.result} context={scoreContext} />
          </details>
        ) : (
          <div className="result">
            <h4>{t('creditChecks.result')}</h4>
            <KeyValueList data={record.result} context={scoreContext} />
          </div>
        ))}
    </article>
  );
}
