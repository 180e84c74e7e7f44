import { useTranslation } from '@/lib/i18n';
import { partLabel } from '../lib/part-label';
import { promptCode } from '../lib/prompt-code';
import { stepTitle } from '../lib/step-titles';
import type { WizardStep } from '../lib/steps';
import type { WizardEvent } from '../lib/wizard-machine';
import { failuresToRetake, heldBackInputs, planInputs, type WizardState } from '../lib/wizard-model';
import { ProblemMessage } from './problem-message';

type Props = {
  steps: WizardStep[];
  state: WizardState;
  dispatch: (event: WizardEvent) => void;
};

const passwordCodes = new Set<string>(['bankDocument.passwordRequired', 'bankDocument.passwordFailed']);

/** Each failed input with what went wrong, what to do, and a button back to exactly that capture. */
export function FailuresScreen({ steps, state, dispatch }: Props) {
  const { t } = useTranslation('wizard');
  const planned = planInputs(steps, state.captures);
  const failures = failuresToRetake(planned, state.results);
  const waiting = heldBackInputs(planned, state.results);
  const name = (input: (typeof planned)[number]) => {
    const step = stepTitle(t, steps[input.stepIndex], steps);
    const sided =
      input.descriptor.inputType === 'document-photo' ||
      input.descriptor.inputType === 'custom-document-photo';
    return sided ? `${step}: ${partLabel(t, input, steps[input.stepIndex])}` : step;
  };

  return (
    <div className="stack">
      {/* What is sent next: the retakes, and the back sides the service set aside behind their
          failed fronts (service README, "Retakes": FirstInputNotProcessed), never a promise that
          only the retakes go. */}
      <p role="status">
        {t('failures.intro', { count: failures.length })}
        {waiting.length === 0 && ` ${t('failures.onlyRetakes', { count: failures.length })}`}
      </p>
      <ol className="failure-list">
        {failures.map((input, i) => {
          const outcome = state.results[input.id];
          if (outcome?.state !== 'failed') return null;
          return (
            <li key={input.id} className="failure">
              <h2>{name(input)}</h2>
              <ProblemMessage code={promptCode(outcome.error.code, input.descriptor.inputType)} />
              {outcome.error.type === 'ClientCheck' && <p className="muted">{t('failures.foundHere')}</p>}
              <button
                type="button"
                className={i === 0 ? undefined : 'secondary'}
                onClick={() =>
                  dispatch({
                    type: 'retaken',
                    stepIndex: input.stepIndex,
                    retake: {
                      inputId: input.id,
                      code: outcome.error.code,
                      fileKey: passwordCodes.has(outcome.error.code) ? undefined : input.file?.stored.key,
                    },
                  })
                }
              >
                {t('failures.retake', { input: name(input) })}
              </button>
            </li>
          );
        })}
      </ol>
      {waiting.length > 0 && (
        <section aria-labelledby="waiting-title">
          <h2 id="waiting-title">{t('failures.waitingTitle')}</h2>
          <p>{t('failures.waiting', { count: waiting.length })}</p>
          <ul>
            {waiting.map((input) => (
              <li key={input.id}>{name(input)}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
