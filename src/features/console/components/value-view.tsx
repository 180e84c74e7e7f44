import { createContext, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n';
import {
  columnsOf,
  formatDate,
  formatDateTime,
  formatNumber,
  humanizeKey,
  isMediaUrl,
  isRecord,
  isVideoKey,
  type NumberContext,
} from '../lib/format';
import { DataTable } from './data-table';

/** "unknown" for a value the service left empty: an empty cell reads as a bug. */
export function Unknown() {
  const { t } = useTranslation('console');
  return <span className="muted">{t('common.unknown')}</span>;
}

/**
 * The media paths the BFF made of the service's media links (`StaffVerificationDetail.media`): only
 * these are fetched as media. Anything else that looks like one (a metadata value, say) stays text,
 * so that data cannot make the staff member's browser request a path of its choosing.
 */
export const MediaLinks = createContext<ReadonlySet<string>>(new Set());

export function MediaView({ src, label, video }: { src: string; label: string; video?: boolean }) {
  const links = useContext(MediaLinks);
  const [broken, setBroken] = useState(false);
  if (!links.has(src)) return <code>{src}</code>;
  // Media URLs carry no type: a PDF (custom document, statement) cannot show as an image, so it becomes a link.
  if (broken) {
    return (
      <a className="media-link" href={src} target="_blank" rel="noopener">
        {label}
      </a>
    );
  }
  if (video) {
    return (
      // The liveness video is a silent selfie clip: there is no speech to caption.
      // eslint-disable-next-line jsx-a11y/media-has-caption
      <video
        className="media"
        src={src}
        controls
        preload="metadata"
        aria-label={label}
        onError={() => setBroken(true)}
      />
    );
  }
  return <img className="media" src={src} alt={label} onError={() => setBroken(true)} />;
}

function isPrimitive(value: unknown) {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Any JSON value, readably: text, yes/no, media, lists, tables of records, nested definition lists. */
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** A data key in the page's language ("ip" → "IP address"); unknown keys made readable. */
export function useKeyLabel() {
  const { t } = useTranslation('console');
  return (key: string, fallback?: string | null) =>
    t(`dataKeys.${key}`, { defaultValue: fallback ?? humanizeKey(key) });
}

export function ValueView({
  name,
  value,
  context,
}: {
  name: string;
  value: unknown;
  /** The currency of sums of money and the scale of scores around this value. */
  context?: NumberContext;
}) {
  const { t, i18n } = useTranslation('console');
  const links = useContext(MediaLinks);
  const keyLabel = useKeyLabel();
  if (value === null || value === undefined || value === '') return <Unknown />;
  if (typeof value === 'boolean') return <>{value ? t('common.yes') : t('common.no')}</>;
  if (typeof value === 'number') {
    const { text, scale } = formatNumber(name, value, i18n.language, context);
    return <>{scale ? t('detail.scoreOf', { score: text, max: scale.max }) : text}</>;
  }
  if (typeof value === 'string') {
    if (isMediaUrl(value) && links.has(value))
      return <MediaView src={value} label={keyLabel(name)} video={isVideoKey(name)} />;
    if (isoDateTime.test(value)) return <time dateTime={value}>{formatDateTime(value, i18n.language)}</time>;
    if (isoDay.test(value)) return <time dateTime={value}>{formatDate(value, i18n.language)}</time>;
    return <>{value}</>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">{t('common.none')}</span>;
    if (value.every(isPrimitive))
      return <>{value.map((v) => (v === null ? t('common.unknown') : String(v))).join(', ')}</>;
    if (value.every(isRecord)) return <RecordTable rows={value} caption={keyLabel(name)} context={context} />;
    return (
      <ul>
        {value.map((item, index) => (
          <li key={index}>
            <ValueView name={name} value={item} context={context} />
          </li>
        ))}
      </ul>
    );
  }
  if (isRecord(value)) return <KeyValueList data={value} context={context} />;
  return <>{String(value)}</>;
}

/** A document field as the service sends it anywhere: { value, label?, format? }. */
function asField(value: unknown): { value: unknown; label: string | null } | null {
  if (!isRecord(value) || !('value' in value)) return null;
  if (!Object.keys(value).every((key) => key === 'value' || key === 'label' || key === 'format')) return null;
  return { value: value.value, label: typeof value.label === 'string' ? value.label : null };
}

/** One row of a `dl.kv` definition list. */
export function KvRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="kv-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A currency named in the record itself wins over the one around it. */
const withOwnCurrency = (data: Record<string, unknown>, context: NumberContext = {}): NumberContext =>
  typeof data.currency === 'string' ? { ...context, currency: data.currency } : context;

export function KeyValueList({
  data,
  labels = {},
  context,
}: {
  data: Record<string, unknown>;
  labels?: Record<string, string>;
  context?: NumberContext;
}) {
  const keyLabel = useKeyLabel();
  const entries = Object.entries(data);
  if (entries.length === 0) return <Unknown />;
  const own = withOwnCurrency(data, context);
  return (
    <dl className="kv">
      {entries.map(([key, value]) => {
        const field = asField(value);
        return (
          <KvRow key={key} label={labels[key] ?? keyLabel(key, field?.label)}>
            <ValueView name={key} value={field ? field.value : value} context={own} />
          </KvRow>
        );
      })}
    </dl>
  );
}

export function RecordTable({
  rows,
  caption,
  context,
}: {
  rows: readonly Record<string, unknown>[];
  caption: string;
  context?: NumberContext;
}) {
  const keyLabel = useKeyLabel();
  const columns = columnsOf(rows);
  return (
    <DataTable caption={caption} columns={columns.map((column) => keyLabel(column))}>
      {rows.map((row, index) => (
        <tr key={index}>
          {columns.map((column) => (
            <td key={column} className={typeof row[column] === 'number' ? 'number' : undefined}>
              <ValueView name={column} value={row[column]} context={withOwnCurrency(row, context)} />
            </td>
          ))}
        </tr>
      ))}
    </DataTable>
  );
}
