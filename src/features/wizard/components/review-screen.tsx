import { useTranslation } from '@/lib/i18n';
import type { CustomFieldDefinition } from '@/shared/flow';
import { countryName } from '../lib/display-names';
import { partLabel } from '../lib/part-label';
import { stepTitle } from '../lib/step-titles';
import type { WizardStep } from '../lib/steps';
import type { WizardEvent } from '../lib/wizard-machine';
import { isStepComplete, planInputs, type WizardState } from '../lib/wizard-model';
import { useSendInputs } from '../hooks/use-send-inputs';
import { FilePreview } from './file-preview';
import { RequestError } from './request-error';
import { UploadProgress } from './upload-progress';

type Props = {
  steps: WizardStep[];
  state: WizardState;
  getBlob: (key: string) => Promise<Blob | undefined>;
  dispatch: (event: WizardEvent) => void;
  restart: () => void;
};

/** A form value as people read it: the option's label, a date in the page's language, Yes/No. */
function displayValue(
  field: CustomFieldDefinition,
  value: string | undefined,
  t: (key: string) => string,
  language: string,
) {
  if (field.type === 'checkbox') return t(value === 'true' ? 'fields.yes' : 'fields.no');
  if (!value) return '—';
  if (field.type === 'select') return field.options?.find((o) => o.value === value)?.label ?? value;
  if (field.type === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    if (!Number.isNaN(date.getTime()))
      return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  }
  return value;
}

function FieldValues({
  fields,
  values,
}: {
  fields: CustomFieldDefinition[];
  values: Record<string, string>;
}) {
  const { t, i18n } = useTranslation('wizard');
  return (
    <dl className="field-values">
      {fields.map((field) => (
        <div key={field.name}>
          <dt>{field.label ?? field.name}</dt>
          <dd>{displayValue(field, values[field.name], t, i18n.language)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ReviewScreen({ steps, state, getBlob, dispatch, restart }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const { send, cancel, toSend, progress, sending, failure, cancelled, checking, askingStatus } =
    useSendInputs({
      steps,
      state,
      getBlob,
      dispatch,
    });
  const planned = planInputs(steps, state.captures);
  const incomplete = steps.filter((step) => !isStepComplete(step, state.captures[step.key]));
  const goTo = (stepIndex: number) => dispatch({ type: 'stepChosen', stepIndex });

  if (askingStatus) {
    return (
      <p role="status" className="muted">
        {t('review.askingStatus')}
      </p>
    );
  }
  return (
    <div className="stack">
      <p className="muted">{t('review.hint')}</p>
      {steps.map((step, stepIndex) => {
        const inputs = planned.filter((input) => input.stepKey === step.key);
        const complete = isStepComplete(step, state.captures[step.key]);
        const allSent =
          inputs.length > 0 && inputs.every((input) => state.results[input.id]?.state === 'accepted');
        const capture = state.captures[step.key];
        return (
          <section key={step.key} className="review-step" aria-labelledby={`review-${step.key}`}>
            <h2 id={`review-${step.key}`}>{stepTitle(t, step, steps)}</h2>
            {capture?.kind === 'document' && (
              <p className="muted">
                {t(`documentTypes.${capture.type}`)} · {countryName(capture.country, i18n.language)}
                {capture.region ? ` · ${capture.region}` : ''}
              </p>
            )}
            <ul className="review-items">
              {inputs.map((input) => (
                <li key={input.id}>
                  {input.file ? (
                    <FilePreview
                      file={input.file.stored}
                      getBlob={getBlob}
                      label={partLabel(t, input, step)}
                    />
                  ) : capture?.kind === 'custom-fields' && step.kind === 'custom-fields' ? (
                    <FieldValues fields={step.fields} values={capture.values} />
                  ) : null}
                  {state.results[input.id]?.state === 'accepted' && (
                    <p className="ok">{t('review.accepted')}</p>
                  )}
                </li>
              ))}
            </ul>
            {capture?.kind === 'document' && capture.noBack && <p className="muted">{t('review.noBack')}</p>}
            {!complete && <p className="error">{t('review.incomplete')}</p>}
            {!allSent && (
              <button
                type="button"
                className="secondary"
                onClick={() => goTo(stepIndex)}
                disabled={sending}
                aria-describedby={`review-${step.key}`}
              >
                {complete ? t('review.change') : t('review.complete')}
              </button>
            )}
          </section>
        );
      })}
      {progress !== null && (
        <div className="stack">
          <UploadProgress fraction={progress} />
          <div className="actions">
            <button type="button" className="secondary" onClick={cancel}>
              {t('review.cancelUpload')}
            </button>
          </div>
        </div>
      )}
      {checking && (
        <p role="status" className="muted">
          {t('review.checking')}
        </p>
      )}
      {cancelled && (
        <p role="status" className="notice">
          {t('review.cancelled')}
        </p>
      )}
      {failure && (
        <RequestError
          failure={failure}
          onRetry={() => void send()}
          onRestart={restart}
          onStatus={() => dispatch({ type: 'finished' })}
        />
      )}
      <div className="actions">
        <button
          type="button"
          onClick={() => void send()}
          disabled={sending || checking || incomplete.length > 0 || !toSend.length || failure === 'locked'}
        >
          {sending ? t('review.sending') : t('review.send')}
        </button>
      </div>
    </div>
  );
}
