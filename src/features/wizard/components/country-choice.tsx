import { useId } from 'react';
import { useTranslation } from '@/lib/i18n';
import { countryName } from '../lib/display-names';

/** A labelled country select, or just the country's name when the flow allows only one. */
export function CountryChoice({
  label,
  countries,
  value,
  invalid = false,
  onChange,
}: {
  label: string;
  countries: string[];
  value: string | undefined;
  invalid?: boolean;
  onChange: (country: string) => void;
}) {
  const { t, i18n } = useTranslation('wizard');
  const id = useId();
  const name = (code: string) => countryName(code, i18n.language);
  if (countries.length < 2) {
    return (
      <p>
        {label}: <strong>{name(value ?? countries[0])}</strong>
      </p>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        aria-invalid={invalid}
        onChange={(event) => onChange(event.target.value)}
      >
        {/* No country is chosen for the person. */}
        <option value="" disabled>
          {t('fields.choose')}
        </option>
        {countries.map((code) => (
          <option key={code} value={code}>
            {name(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
