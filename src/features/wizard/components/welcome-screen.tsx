import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n';
import { documentSides } from '@/shared/document-sides';
import { inSentence } from '@/shared/glossary';
import type { Flow } from '@/shared/flow';
import { useBrand } from '@/lib/brand';
import { countryName } from '../lib/display-names';
import { consentPurpose, customDocumentName, fieldLabel } from '../lib/flow-texts';
import type { WizardStep } from '../lib/steps';

type Props = {
  flow: Flow;
  steps: WizardStep[];
  consented: boolean;
  /** The person agreed and starts here (the verification is created then). */
  onConsent: () => Promise<unknown>;
  /** The person agreed and asked to continue on a phone (a QR code). */
  onPhone: () => void;
  /** The phone handoff once asked for (its QR code), in place of the choice. */
  phonePanel: ReactNode;
  /** On a computer the phone is the better camera: its choice comes first. */
  phoneFirst: boolean;
};

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
export function WelcomeScreen({ flow, steps, consented, onConsent, onPhone, phonePanel, phoneFirst }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const brand = useBrand();
  const language = i18n.language;
  const checkboxId = useId();
  const errorId = useId();
  const [agreed, setAgreed] = useState(consented);
  const [missing, setMissing] = useState(false);
  const [starting, setStarting] = useState(false);
  const [failed, setFailed] = useState(false);
  const minutes = steps.reduce((sum, step) => sum + minutesOf(step), 0);
  // One controller (the brand, as in the header and the checkbox) and one retention (the
  // service's RETENTION_DAYS); the flow says what and why.
  const purpose = consentPurpose(flow, language) ?? t('welcome.defaultPurpose');
  const notice = [
    t('welcome.receives', { controller: brand.name, purpose }),
    brand.retentionDays > 0
      ? t('welcome.retention', { count: brand.retentionDays })
      : t('welcome.retentionKept', { controller: brand.name }),
  ].join(' ');

  const countries = (codes: string[]) => codes.map((code) => countryName(code, language)).join(', ');
  // Named mid-sentence ("Your passport or national ID card"), not as the choice's labels.
  const documentNames = (step: Extract<WizardStep, { kind: 'document' }>) =>
    step.document.types.map((type) => inSentence(t(`documentTypes.${type}`))).join(t('welcome.or'));

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
          t(step.document.multiPage ? 'welcome.needCustomMulti' : 'welcome.needCustom', {
            document: inSentence(name),
          }),
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

  /** Nothing goes anywhere before the box is ticked. */
  function checkAgreed() {
    if (agreed) return true;
    setMissing(true);
    document.getElementById(checkboxId)?.focus();
    return false;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!checkAgreed() || starting) return;
    setStarting(true);
    setFailed(false);
    onConsent().then(
      () => setStarting(false),
      () => {
        setStarting(false);
        setFailed(true);
      },
    );
  }

  const phone = (
    <section aria-labelledby="welcome-phone" className="welcome-card welcome-phone">
      {phonePanel ?? (
        <>
          <h2 id="welcome-phone">{t('handoff.title')}</h2>
          <p className="muted">{t('handoff.hint')}</p>
          <div className="actions">
            <button
              type="button"
              className={phoneFirst ? undefined : 'secondary'}
              onClick={() => checkAgreed() && onPhone()}
            >
              {t('handoff.show')}
            </button>
          </div>
        </>
      )}
    </section>
  );

  const needsAndRules = (
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
  );

  return (
    <form className="welcome stack" onSubmit={submit} noValidate>
      <p className="welcome-lead">
        {t('welcome.lead', { brand: brand.name })} <strong>{t('welcome.minutes', { count: minutes })}</strong>
      </p>
      {!phoneFirst && needsAndRules}
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
      {phoneFirst && phone}
      <div className="actions">
        <button type="submit" className={phoneFirst ? 'secondary' : undefined} aria-disabled={starting}>
          {t('welcome.start')}
        </button>
      </div>
      {starting && <p role="status">{t('starting')}</p>}
      {failed && (
        <p role="alert" className="error">
          {t('welcome.startFailed')}
        </p>
      )}
      {phoneFirst ? needsAndRules : phone}
    </form>
  );
}
