import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';

type Part = 'day' | 'month' | 'year';

type Props = {
  id: string;
  label: string;
  required: boolean;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
};

const pad = (n: string) => n.padStart(2, '0');

/** The day, month and year in the order the language writes them (en: month first; es, pt: day). */
function partsOrder(language: string): Part[] {
  const order = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'numeric', year: 'numeric' })
    .formatToParts(new Date(Date.UTC(2001, 10, 22)))
    .map((p) => p.type)
    .filter((type): type is Part => type === 'day' || type === 'month' || type === 'year');
  return order.length === 3 ? order : ['day', 'month', 'year'];
}

const split = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match
    ? { year: match[1], month: String(Number(match[2])), day: String(Number(match[3])) }
    : { year: '', month: '', day: '' };
};

/**
 * A date as three fields (day, month by name, year) in the chosen language's order and words: a
 * browser's date picker follows the browser's own locale, not the language chosen here. The value
 * is YYYY-MM-DD when whole, '' when empty, and something the schema refuses when partly filled.
 */
export function DateField({ id, label, required, value, invalid, describedBy, onChange, onBlur }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const [parts, setParts] = useState(() => split(value));
  const months = Array.from({ length: 12 }, (_, i) =>
    new Intl.DateTimeFormat(i18n.language, { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2001, i, 1)),
    ),
  );
  const update = (part: Part, text: string) => {
    const next = { ...parts, [part]: text.trim() };
    setParts(next);
    const { year, month, day } = next;
    if (!year && !month && !day) onChange('');
    else if (/^\d{4}$/.test(year) && month && /^\d{1,2}$/.test(day))
      onChange(`${year}-${pad(month)}-${pad(day)}`);
    else onChange(`incomplete:${year}-${month}-${day}`);
  };
  const common = { 'aria-invalid': invalid, onBlur } as const;
  const field = (part: Part) => {
    const partId = `${id}-${part}`;
    return (
      <div key={part} className={`date-part date-part-${part}`}>
        <label htmlFor={partId}>{t(`fields.date.${part}`)}</label>
        {part === 'month' ? (
          <select
            id={partId}
            value={parts.month}
            onChange={(e) => update('month', e.target.value)}
            {...common}
          >
            <option value="">{t('fields.choose')}</option>
            {months.map((name, i) => (
              <option key={name} value={String(i + 1)}>
                {name}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={partId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={part === 'year' ? 4 : 2}
            size={part === 'year' ? 4 : 2}
            value={parts[part]}
            onChange={(e) => update(part, e.target.value.replace(/\D/g, ''))}
            {...common}
          />
        )}
      </div>
    );
  };
  return (
    <fieldset className="field date-field" aria-describedby={describedBy}>
      <legend>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      <div className="date-parts">{partsOrder(i18n.language).map(field)}</div>
    </fieldset>
  );
}
