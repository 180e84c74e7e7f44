import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { BankCapture } from '../lib/wizard-model';
import { CaptureField } from './capture-field';
import { CountryChoice } from './country-choice';
import { ProblemMessage } from './problem-message';
import { storedExtra, type StepProps } from './step-props';

export function BankStep({ step, capture, retake, storeFile, getBlob, save, next }: StepProps<'bank'>) {
  const { t } = useTranslation('wizard');
  const passwordId = useId();
  const institutionSelectId = useId();
  const current = capture?.kind === 'bank' ? capture : undefined;
  // Nothing is chosen for the person where there is a choice to make.
  const [country, setCountry] = useState<string | undefined>(
    current?.country ?? (step.countries.length === 1 ? step.countries[0] : undefined),
  );
  const [institutionId, setInstitutionId] = useState(
    current?.institutionId ?? (step.institutions.length === 1 ? step.institutions[0].institutionId : ''),
  );
  const [password, setPassword] = useState(current?.password ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const value: BankCapture = { kind: 'bank', ...current, country: country ?? '', institutionId };
  const unchosen = !country || !institutionId;
  const passwordRetake =
    retake?.code === 'bankDocument.passwordRequired' || retake?.code === 'bankDocument.passwordFailed';
  const needsPassword = !!value.file && (!!value.encrypted || passwordRetake);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.file) return;
    setProblem(null);
    if (unchosen) return setProblem('client.bankChoiceMissing');
    if (needsPassword) {
      if (!password) return setProblem('client.passwordRequired');
      setChecking(true);
      try {
        const blob = await getBlob(value.file.key);
        const { checkPdfPassword } = await import('../checks/check-pdf');
        const result = blob ? await checkPdfPassword(blob, password) : { ok: false };
        if (!result.ok) return setProblem('client.passwordWrong');
      } catch {
        return setProblem('client.unreadable');
      } finally {
        setChecking(false);
      }
    }
    save({ ...value, password: needsPassword ? password : undefined });
    next();
  }

  return (
    <form onSubmit={submit} className="stack">
      {retake && <ProblemMessage code={retake.code} title={t('retake.title')} />}
      <p className="muted">{t('bank.hint')}</p>
      <CountryChoice
        label={t('bank.country')}
        countries={step.countries}
        value={country}
        invalid={problem === 'client.bankChoiceMissing' && !country}
        onChange={setCountry}
      />
      <div className="field">
        <label htmlFor={institutionSelectId}>{t('bank.institution')}</label>
        <select
          id={institutionSelectId}
          value={institutionId}
          aria-invalid={problem === 'client.bankChoiceMissing' && !institutionId}
          onChange={(event) => setInstitutionId(event.target.value)}
        >
          <option value="" disabled>
            {t('fields.choose')}
          </option>
          {step.institutions.map((institution) => (
            <option key={institution.institutionId} value={institution.institutionId}>
              {institution.name}
            </option>
          ))}
        </select>
      </div>
      <CaptureField
        label={t('bank.fileLabel')}
        accept="image-or-pdf"
        checkKind="custom-document"
        protectedPdfAllowed
        value={value.file}
        getBlob={getBlob}
        onFile={async (file, info) => {
          const stored = await storeFile(file, 'bank', storedExtra(info));
          setPassword('');
          save({ ...value, file: stored, encrypted: !!info.pdf?.encrypted, password: undefined });
        }}
      />
      {needsPassword && (
        <div className="field">
          <label htmlFor={passwordId}>{t('bank.password')}</label>
          <input
            id={passwordId}
            type="password"
            autoComplete="off"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p className="muted">{t('bank.passwordHint')}</p>
        </div>
      )}
      {problem && <ProblemMessage code={problem} />}
      <div className="actions">
        <button type="submit" disabled={!value.file || checking}>
          {checking ? t('bank.checkingPassword') : t('actions.continue')}
        </button>
      </div>
    </form>
  );
}
