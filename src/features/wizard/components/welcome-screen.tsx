import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { documentSides } from '@/shared/document-sides';
import type { Flow } from '@/shared/flow';
import { useBrand } from '@/lib/brand';
import { countryName } from '../lib/display-names';
import { consentText, customDocumentName, fieldLabel } from '../lib/flow-texts';
import type { WizardStep } from '../lib/steps';

type Props = { flow: Flow; steps: WizardStep[]; consented: boolean; onConsent: () => void };

/** Minutes a step takes a first-time user, for the estimate on the welcome screen. */
function minutesOf(step: WizardStep): number {
  switch (step.kind) {
    case 'document':
      return step.document.types.some((type) => documentSides(type, step.document.countries[0]) !== 'one')
        ? 2
        : 1;
    case 'biometric':
      return 1;
    case 'custom-document':
      return 1;
    case 'custom-fields':
      return Math.max(1, Math.ceil(step.fields.length / 3));
    case 'bank':
      return 1;
  }
}

/** Before any capture: what the person will need, what will be checked, how long, and consent. */
export function WelcomeScreen({ flow, steps, consented, onConsent }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const brand = useBrand();
  const language = i18n.language;
  const checkboxId = useId();
  const errorId = useId();
  const [agreed, setAgreed] = useState(consented);
  const [missing, setMissing] = useState(false);
  const minutes = steps.reduce((sum, step) => sum + minutesOf(step), 0);
  const notice = consentText(flow, language) ?? t('welcome.defaultConsent', { brand: brand.name });

  const countries = (codes: string[]) => codes.map((code) => countryName(code, language)).join(', ');
  const documentNames = (step: Extract<WizardStep, { kind: 'document' }>) =>
    step.document.types.map((type) => t(`documentTypes.${type}`)).join(t('welcome.or'));

  const needs: string[] = [];
  const rules: string[] = [];
  for (const step of steps) {
    switch (step.kind) {
      case 'document': {
        const sides = step.document.types.map((type) => documentSides(type, step.document.countries[0]));
        needs.push(
          t(sides.every((s) => s === 'one') ? 'welcome.needDocument' : 'welcome.needDocumentSides', {
            document: documentNames(step),
            countries: countries(step.document.countries),
          }),
        );
        for (const check of step.document.requires)
          rules.push(t(`welcome.rule.${check}`, { document: documentNames(step) }));
        break;
      }
      case 'biometric':
        needs.push(t(step.input === 'selfie-video' ? 'welcome.needVideo' : 'welcome.needSelfie'));
        rules.push(t('welcome.rule.face'));
        break;
      case 'custom-document': {
        const name = customDocumentName(flow, language, step.document) ?? t('customDocument.defaultName');
        needs.push(
          t(step.document.multiPage ? 'welcome.needCustomMulti' : 'welcome.needCustom', { document: name }),
        );
        break;
      }
      case 'custom-fields':
        needs.push(
          t('welcome.needFields', {
            fields: step.fields
              .filter((field) => field.type !== 'checkbox')
              .map((field) => fieldLabel(flow, language, field))
              .join(', '),
          }),
        );
        break;
      case 'bank':
        needs.push(
          t('welcome.needBank', { banks: step.institutions.map((i) => i.name).join(t('welcome.or')) }),
        );
        rules.push(t('welcome.rule.original'));
        break;
    }
  }
  if (steps.some((step) => step.kind === 'document' || step.kind === 'custom-document'))
    rules.unshift(t('welcome.rule.photo'));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!agreed) {
      setMissing(true);
      document.getElementById(checkboxId)?.focus();
      return;
    }
    onConsent();
  }

  return (
    <form className="welcome stack" onSubmit={submit} noValidate>
      <p className="welcome-lead">
        {t('welcome.lead', { brand: brand.name })} <strong>{t('welcome.minutes', { count: minutes })}</strong>
      </p>
      <div className="welcome-columns">
        <section aria-labelledby="welcome-needs" className="welcome-card">
          <h2 id="welcome-needs">{t('welcome.needsTitle')}</h2>
          <ul className="check-list">
            {needs.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="welcome-rules" className="welcome-card">
          <h2 id="welcome-rules">{t('welcome.rulesTitle')}</h2>
          <ul className="check-list">
            {rules.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </section>
      </div>
      <section aria-labelledby="welcome-privacy" className="welcome-card consent">
        <h2 id="welcome-privacy">{t('welcome.privacyTitle')}</h2>
        <p>{notice}</p>
        {flow.consent?.noticeUrl && (
          <p>
            <a href={flow.consent.noticeUrl} target="_blank" rel="noopener noreferrer">
              {t('welcome.fullNotice')}
              <span className="visually-hidden"> {t('welcome.newTab')}</span>
            </a>
          </p>
        )}
        <label className="choice" htmlFor={checkboxId}>
          <input
            id={checkboxId}
            type="checkbox"
            checked={agreed}
            aria-invalid={missing && !agreed}
            aria-describedby={missing && !agreed ? errorId : undefined}
            onChange={(event) => {
              setAgreed(event.target.checked);
              if (event.target.checked) setMissing(false);
            }}
          />
          {t('welcome.agree', { brand: brand.name })}
        </label>
        {missing && !agreed && (
          <p id={errorId} className="error" role="alert">
            {t('welcome.agreeRequired')}
          </p>
        )}
      </section>
      <div className="actions">
        <button type="submit">{t('welcome.start')}</button>
      </div>
    </form>
  );
}
