import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@/lib/link';
import '../lib/translations';
import { BankStep } from '../components/bank-step';
import { BiometricStep } from '../components/biometric-step';
import { CustomDocumentStep } from '../components/custom-document-step';
import { DocumentStep } from '../components/document-step';
import { DoneScreen } from '../components/done-screen';
import { FailuresScreen } from '../components/failures-screen';
import { ReviewScreen } from '../components/review-screen';
import { useFocusOnChange } from '../hooks/use-focus-on-change';
import { useWizard, type Wizard } from '../hooks/use-wizard';
import { stepTitle } from '../lib/step-titles';
import type { WizardStep } from '../lib/steps';
import { planInputs, withoutPart, type WizardState } from '../lib/wizard-model';

const CustomFieldsStep = lazy(() => import('../components/custom-fields-step'));

function StepScreen({ wizard, steps, state }: { wizard: Wizard; steps: WizardStep[]; state: WizardState }) {
  const { t } = useTranslation('wizard');
  const step = steps[state.stepIndex];
  const retakeInput =
    state.retake && planInputs(steps, state.captures).find((i) => i.id === state.retake?.inputId);
  const retake =
    state.retake && retakeInput ? { part: retakeInput.part, code: state.retake.code } : undefined;
  const common = {
    capture: retake
      ? withoutPart(state.captures[step.key], retake.part, state.retake?.fileKey)
      : state.captures[step.key],
    retake,
    storeFile: wizard.storeFile,
    getBlob: wizard.getBlob,
    save: (capture: Parameters<Wizard['saveCapture']>[1]) => wizard.saveCapture(step.key, capture),
    next: wizard.next,
  };
  // A key per step (and retake) so each screen starts from its own state.
  const key = `${step.key}-${state.retake?.inputId ?? ''}`;
  switch (step.kind) {
    case 'document':
      return <DocumentStep key={key} step={step} {...common} />;
    case 'biometric':
      return <BiometricStep key={key} step={step} {...common} />;
    case 'custom-document':
      return <CustomDocumentStep key={key} step={step} {...common} />;
    case 'custom-fields':
      return (
        <Suspense fallback={<p aria-live="polite">{t('loadingStep')}</p>}>
          <CustomFieldsStep key={key} step={step} {...common} />
        </Suspense>
      );
    case 'bank':
      return <BankStep key={key} step={step} {...common} />;
  }
}

export default function WizardPage({ flowId }: { flowId: string }) {
  const { t } = useTranslation('wizard');
  const wizard = useWizard(flowId);
  const { load } = wizard;
  const screenKey = load.phase === 'ready' ? `${load.state.screen}-${load.state.stepIndex}` : load.phase;
  // Moving focus to the new heading tells screen-reader and keyboard users the screen changed.
  const container = useFocusOnChange<HTMLDivElement>(screenKey, 'h1');

  useEffect(() => {
    document.title = `${t('title')} · IDV Capture`;
  }, [t]);

  if (load.phase === 'loading') return <p aria-live="polite">{t('starting')}</p>;
  if (load.phase === 'error') {
    const notFound = load.error.status === 404;
    return (
      <div className="stack">
        <h1>{notFound ? t('flowNotFound') : t('startFailed')}</h1>
        <p role="alert">{notFound ? t('flowNotFoundHint') : t('startFailedHint')}</p>
        <div className="actions">
          {!notFound && (
            <button type="button" onClick={wizard.retry}>
              {t('actions.tryAgain')}
            </button>
          )}
          <Link href="/" className="button secondary">
            {t('backToFlows')}
          </Link>
        </div>
      </div>
    );
  }
  if (load.steps.length === 0) {
    return (
      <div className="stack">
        <h1>{t('flowEmpty')}</h1>
        <Link href="/" className="button secondary">
          {t('backToFlows')}
        </Link>
      </div>
    );
  }

  const { flow, steps, state } = load;
  const total = steps.length + 1;
  let title: string;
  let position: string | null = null;
  switch (state.screen) {
    case 'steps':
      title = stepTitle(t, steps[state.stepIndex], steps);
      position = t('stepOf', { n: state.stepIndex + 1, total });
      break;
    case 'review':
      title = t('review.title');
      position = t('stepOf', { n: total, total });
      break;
    case 'failures':
      title = t('failures.title');
      break;
    case 'done':
      title = t('done.title');
      break;
  }

  return (
    <div className="wizard" ref={container}>
      <p className="wizard-flow">{flow.name}</p>
      {position && <p className="wizard-position">{position}</p>}
      <h1 tabIndex={-1}>{title}</h1>
      {state.screen === 'steps' && <StepScreen wizard={wizard} steps={steps} state={state} />}
      {state.screen === 'steps' && state.stepIndex > 0 && !state.retake && (
        <button
          type="button"
          className="link-button"
          onClick={() => wizard.update((s) => ({ ...s, stepIndex: s.stepIndex - 1 }))}
        >
          {t('actions.previousStep')}
        </button>
      )}
      {state.screen === 'review' && (
        <ReviewScreen
          steps={steps}
          state={state}
          getBlob={wizard.getBlob}
          update={wizard.update}
          restart={() => void wizard.restart()}
        />
      )}
      {state.screen === 'failures' && <FailuresScreen steps={steps} state={state} update={wizard.update} />}
      {state.screen === 'done' && (
        <DoneScreen
          verificationId={state.verification.verificationId}
          onRestart={() => void wizard.restart()}
        />
      )}
    </div>
  );
}
