import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { CustomFieldDefinition } from '@/shared/flow';
import { skipUploadWait } from '../api/wizard-api';
import { partLabel } from '../lib/part-label';
import { buildSendInputForm, classifyFailure, sendInputs, type RequestFailure } from '../lib/send-input';
import { stepTitle } from '../lib/step-titles';
import type { WizardStep } from '../lib/steps';
import { deleteBlobs } from '../lib/storage';
import {
  failuresToRetake,
  isStepComplete,
  pendingInputs,
  planInputs,
  type InputOutcome,
  type WizardState,
} from '../lib/wizard-model';
import { FilePreview } from './file-preview';
import { RequestError } from './request-error';
import { UploadProgress } from './upload-progress';

type Props = {
  steps: WizardStep[];
  state: WizardState;
  getBlob: (key: string) => Promise<Blob | undefined>;
  update: (change: (state: WizardState, steps: WizardStep[]) => WizardState) => void;
  restart: () => void;
};

function FieldValues({
  fields,
  values,
}: {
  fields: CustomFieldDefinition[];
  values: Record<string, string>;
}) {
  const { t } = useTranslation('wizard');
  return (
    <dl className="field-values">
      {fields.map((field) => (
        <div key={field.name}>
          <dt>{field.label ?? field.name}</dt>
          <dd>
            {field.type === 'checkbox'
              ? t(values[field.name] === 'true' ? 'fields.yes' : 'fields.no')
              : values[field.name] || '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ReviewScreen({ steps, state, getBlob, update, restart }: Props) {
  const { t } = useTranslation('wizard');
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<RequestFailure | null>(null);
  const planned = planInputs(steps, state.captures);
  const incomplete = steps.filter((step) => !isStepComplete(step, state.captures[step.key]));
  const toSend = pendingInputs(planned, state.results);

  const goTo = (stepIndex: number) =>
    update((s) => ({ ...s, screen: 'steps', stepIndex, retake: undefined }));

  async function send() {
    setFailure(null);
    setProgress(0);
    const parts = await Promise.all(
      toSend.map(async (input) => ({
        input,
        blob: input.file ? await getBlob(input.file.stored.key) : undefined,
      })),
    );
    const outcome = await sendInputs(state.verification.identity, buildSendInputForm(parts), setProgress);
    if (!outcome.ok) {
      setProgress(null);
      setFailure(classifyFailure(outcome.status, outcome.error));
      return;
    }
    const results: Record<string, InputOutcome> = { ...state.results };
    toSend.forEach((input, i) => {
      const result = outcome.results[i];
      if (!result) return;
      results[input.id] =
        result.result === true ? { state: 'accepted' } : { state: 'failed', error: result.error };
    });
    const allAccepted = planned.every((input) => results[input.id]?.state === 'accepted');
    let skippedUploadWait = state.skippedUploadWait;
    if (allAccepted) {
      // A front sent without its back would wait for it; the person said there is none.
      const waiting = steps.some((step) => {
        const capture = state.captures[step.key];
        return step.kind === 'document' && capture?.kind === 'document' && capture.noBack;
      });
      if (waiting && !skippedUploadWait) {
        skippedUploadWait = await skipUploadWait(state.verification.verificationId).then(
          () => true,
          () => false,
        );
      }
      void deleteBlobs(`${state.verification.verificationId}/`).catch(() => undefined);
    }
    setProgress(null);
    update((s) => ({
      ...s,
      results,
      skippedUploadWait,
      screen: allAccepted ? 'done' : failuresToRetake(planned, results).length ? 'failures' : 'review',
    }));
  }

  const sending = progress !== null;
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
            <ul className="review-items">
              {inputs.map((input) => (
                <li key={input.id}>
                  {input.file ? (
                    <FilePreview file={input.file.stored} getBlob={getBlob} label={partLabel(t, input)} />
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
                aria-label={t('review.changeStep', { step: stepTitle(t, step, steps) })}
              >
                {complete ? t('review.change') : t('review.complete')}
              </button>
            )}
          </section>
        );
      })}
      {sending && <UploadProgress fraction={progress} />}
      {failure && (
        <RequestError
          failure={failure}
          onRetry={() => void send()}
          onRestart={restart}
          onStatus={() => update((s) => ({ ...s, screen: 'done' }))}
        />
      )}
      <div className="actions">
        <button
          type="button"
          onClick={() => void send()}
          disabled={sending || incomplete.length > 0 || !toSend.length}
        >
          {sending ? t('review.sending') : t('review.send')}
        </button>
      </div>
    </div>
  );
}
