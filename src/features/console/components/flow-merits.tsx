import { useTranslation } from '@/lib/i18n';
import type { Flow, Merit } from '@/shared/flow';
import { countryName, humanizeKey } from '../lib/format';
import { DataTable } from './data-table';

function useNames() {
  const { t, i18n } = useTranslation('console');
  const country = (code: string) => countryName(code, i18n.language);
  const docType = (type: string) =>
    t(`documentTypes.${type}`, { defaultValue: humanizeKey(type.replace(/^custom-/, '')) });
  return { t, country, docType };
}

function DocumentVerification({ merit }: { merit: Extract<Merit, { type: 'document-verification' }> }) {
  const { t, country, docType } = useNames();
  return (
    <DataTable
      caption={t('flows.documents.caption')}
      columns={[
        t('flows.documents.step'),
        t('flows.documents.types'),
        t('flows.documents.countries'),
        t('flows.documents.requires'),
      ]}
    >
      {merit.documents.map((step, index) => (
        <tr key={index}>
          <th scope="row">{index + 1}</th>
          <td>{step.types.map(docType).join(', ')}</td>
          <td>
            {step.countries
              .map((code) => {
                const regions = step.regions?.[code] ?? [];
                return regions.length
                  ? `${country(code)} (${t('flows.documents.regions', { regions: regions.join(', ') })})`
                  : country(code);
              })
              .join(', ')}
          </td>
          <td>
            {step.requires?.length
              ? step.requires.map((c) => t(`flows.checks.${c}`)).join(', ')
              : t('common.none')}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function CustomFields({ merit }: { merit: Extract<Merit, { type: 'custom-fields' }> }) {
  const { t, country } = useNames();
  return (
    <DataTable
      caption={t('flows.fields.caption', { country: country(merit.country) })}
      columns={[
        t('flows.fields.field'),
        t('flows.fields.type'),
        t('flows.fields.required'),
        t('flows.fields.rules'),
      ]}
    >
      {merit.fields.map((field) => (
        <tr key={field.name}>
          <th scope="row">{field.label ?? humanizeKey(field.name)}</th>
          <td>{t(`flows.fieldTypes.${field.type}`, { defaultValue: field.type })}</td>
          <td>{field.required ? t('common.yes') : t('common.no')}</td>
          <td>
            {[
              field.options?.length
                ? t('flows.fields.options', { options: field.options.map((o) => o.label).join(', ') })
                : null,
              field.pattern ? t('flows.fields.pattern', { pattern: field.pattern }) : null,
              field.mapping
                ? t('flows.fields.mapping', { key: field.mapping.key, country: field.mapping.country })
                : null,
            ]
              .filter(Boolean)
              .join('; ') || t('common.none')}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function MeritDetails({ merit }: { merit: Merit }) {
  const { t, country, docType } = useNames();
  switch (merit.type) {
    case 'document-verification':
      return <DocumentVerification merit={merit} />;
    case 'biometric-verification':
      return <p>{t(`flows.biometric.${merit.input}`)}</p>;
    case 'custom-document':
      return (
        <ul>
          {merit.documents.map((doc) => (
            <li key={doc.type}>
              {doc.name ?? docType(doc.type)} —{' '}
              {doc.multiPage ? t('flows.custom.multiPage') : t(`flows.custom.sides.${doc.sides ?? 'one'}`)}
            </li>
          ))}
        </ul>
      );
    case 'custom-fields':
      return <CustomFields merit={merit} />;
    case 'bank-account-data':
      return (
        <>
          <p>{t('flows.bank.countries', { countries: merit.countries.map(country).join(', ') })}</p>
          <p>{t('flows.bank.institutions')}</p>
          <ul>
            {merit.institutions.map((institution) => (
              <li key={institution.institutionId}>{institution.name}</li>
            ))}
          </ul>
        </>
      );
  }
}

export function FlowMerits({ flow }: { flow: Flow }) {
  const { t } = useTranslation('console');
  if (flow.merits.length === 0) return <p>{t('flows.noMerits')}</p>;
  return (
    <div className="merits">
      {flow.merits.map((merit) => (
        <section key={merit.type} className="merit" aria-label={t(`flows.merits.${merit.type}`)}>
          <h3>{t(`flows.merits.${merit.type}`)}</h3>
          <MeritDetails merit={merit} />
        </section>
      ))}
    </div>
  );
}
