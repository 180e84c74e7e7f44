import { Suspense, useEffect } from 'react';
import { useTranslation } from '@/lib/i18n';
import { lazyScreen } from '@/lib/lazy-screen';
import { Link } from '@/lib/link';
import '../lib/translations';
import { useFocusOnChange } from '../hooks/use-focus-on-change';
import { useWizard, type Wizard } from '../hooks/use-wizard';
import { stepTitle } from '../lib/step-titles';
import type { WizardStep } from '../lib/steps';
import { planInputs, withoutPart, type WizardState } from '../lib/wizard-model';

// Each screen's code loads when the screen is shown: the first screen carries only its own step,
// and the others are fetched once it shows (so that moving on never waits).
const DocumentStep = lazyScreen(() => import('../components/document-step').then((m) => m.DocumentStep));
const BiometricStep = lazyScreen(() => import('../components/biometric-step').then((m) => m.BiometricStep));
const CustomDocumentStep = lazyScreen(() =>
  import('../components/custom-document-step').then((m) => m.CustomDocumentStep),
);
const CustomFieldsStep = lazyScreen(() => import('../components/custom-fields-step').then((m) => m.default));
const BankStep = lazyScreen(() => import('../components/bank-step').then((m) => m.BankStep));
const ReviewScreen = lazyScreen(() => import('../components/review-screen').then((m) => m.ReviewScreen));
const FailuresScreen = lazyScreen(() =>
  import('../components/failures-screen').then((m) => m.FailuresScreen),
);
const DoneScreen = lazyScreen(() => import('../components/done-screen').then((m) => m.DoneScreen));
const stepScreens = {
  document: DocumentStep,
  biometric: BiometricStep,
  'custom-document': CustomDocumentStep,
  'custom-fields': CustomFieldsStep,
  bank: BankStep,
} satisfies Record<WizardStep['kind'], { preload(): Promise<void> }>;

function StepScreen({ wizard, steps, state }: { wizard: Wizard; steps: WizardStep[]; state: WizardState }) {
  const kinds = [...new Set(steps.map((s) => s.kind))].join(' ');
  useEffect(() => {
    // Once a step shows (its code has loaded): the flow's other screens, ready before they are needed.
    const timer = setTimeout(() => {
      for (const kind of kinds.split(' ')) void stepScreens[kind as WizardStep['kind']].preload();
      for (const screen of [ReviewScreen, FailuresScreen, DoneScreen]) void screen.preload();
    }, 300);
    return () => clearTimeout(timer);
  }, [kinds]);
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
      return <CustomFieldsStep key={key} step={step} {...common} />;
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
      <Suspense fallback={<p aria-live="polite">{t('loadingStep')}</p>}>
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
      </Suspense>
    </div>
  );
}
