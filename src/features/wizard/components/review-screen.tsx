import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { CustomFieldDefinition } from '@/shared/flow';
import { getStatus, skipUploadWait } from '../api/wizard-api';
import { countryName } from '../lib/display-names';
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
  type InputError,
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

export function ReviewScreen({ steps, state, getBlob, update, restart }: Props) {
  const { t, i18n } = useTranslation('wizard');
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<RequestFailure | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [checking, setChecking] = useState(false);
  const upload = useRef<AbortController | null>(null);
  // A reload (or a closed tab) during an upload: whether it arrived is asked before any new send,
  // so that the person is never offered a send the service would refuse.
  const [askingStatus, setAskingStatus] = useState(!!state.sendingSince);
  const interrupted = !!state.sendingSince;
  const verificationId = state.verification.verificationId;

  useEffect(() => {
    if (!interrupted || upload.current) return;
    let stopped = false;
    getStatus(verificationId).then(
      (status) => {
        if (stopped) return;
        setAskingStatus(false);
        // Processing started: everything arrived and nothing more can be sent.
        if (status.status !== 'pending') update((s) => ({ ...s, sendingSince: undefined, screen: 'done' }));
        else update((s) => ({ ...s, sendingSince: undefined }));
      },
      () => !stopped && setAskingStatus(false),
    );
    return () => {
      stopped = true;
    };
  }, [interrupted, verificationId, update]);
  const planned = planInputs(steps, state.captures);
  const incomplete = steps.filter((step) => !isStepComplete(step, state.captures[step.key]));
  const toSend = pendingInputs(planned, state.results);

  const goTo = (stepIndex: number) =>
    update((s) => ({ ...s, screen: 'steps', stepIndex, retake: undefined }));

  async function send() {
    setFailure(null);
    setCancelled(false);
    setChecking(true);
    // Everything the browser can already refuse is told now, together, and stays here.
    const { checkHeldInputs } = await import('../checks/check-held-inputs');
    const refused = await checkHeldInputs(toSend, planned, steps, getBlob).catch(
      (): Record<string, InputError> => ({}),
    );
    setChecking(false);
    const refusedResults = Object.fromEntries(
      Object.entries(refused).map(([id, error]): [string, InputOutcome] => [id, { state: 'failed', error }]),
    );
    const sendNow = toSend.filter((input) => !refused[input.id]);
    if (!sendNow.length) {
      update((s) => ({ ...s, results: { ...s.results, ...refusedResults }, screen: 'failures' }));
      return;
    }
    setProgress(0);
    const controller = new AbortController();
    upload.current = controller;
    update((s) => ({ ...s, sendingSince: new Date().toISOString() }));
    const parts = await Promise.all(
      sendNow.map(async (input) => ({
        input,
        blob: input.file ? await getBlob(input.file.stored.key) : undefined,
      })),
    );
    const outcome = await sendInputs(
      state.verification.identity,
      buildSendInputForm(parts),
      setProgress,
      controller.signal,
    );
    upload.current = null;
    if (!outcome.ok) {
      setProgress(null);
      update((s) => ({ ...s, sendingSince: undefined }));
      if (controller.signal.aborted) {
        setCancelled(true);
        return;
      }
      // Everything arrived already (an earlier upload finished after all): the "locked" screen
      // offers the status only, never another send.
      setFailure(classifyFailure(outcome.status, outcome.error));
      return;
    }
    // The service's answers and the browser's refusals, on one failures screen.
    const results: Record<string, InputOutcome> = { ...state.results, ...refusedResults };
    sendNow.forEach((input, i) => {
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
      sendingSince: undefined,
      screen: allAccepted ? 'done' : failuresToRetake(planned, results).length ? 'failures' : 'review',
    }));
  }

  const sending = progress !== null;
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
      {sending && (
        <div className="stack">
          <UploadProgress fraction={progress} />
          <div className="actions">
            <button type="button" className="secondary" onClick={() => upload.current?.abort()}>
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
          onStatus={() => update((s) => ({ ...s, screen: 'done' }))}
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
