import { Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation, type Language } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { lazyScreen } from '@/lib/lazy-screen';
import { useScreenSettled } from '@/lib/use-screen-settled';
import { Link } from '@/lib/link';
import '../lib/translations';
import '../components/wizard.css';
import { WelcomeScreen } from '../components/welcome-screen';
import { WizardStepper } from '../components/wizard-stepper';
import { useHistorySync } from '../hooks/use-history-sync';
import { useFocusOnChange } from '../hooks/use-focus-on-change';
import { useComputer } from '../hooks/use-computer';
import { useHandoff } from '../hooks/use-handoff';
import { useWizard, type Wizard } from '../hooks/use-wizard';
import { stepTitle } from '../lib/step-titles';
import type { HandoffRequest } from '@/shared/contract/bff-api';
import type { WizardStep } from '../lib/steps';
import { flowName, localizeSteps } from '../lib/flow-texts';
import { planInputs, withoutPart, type Capture, type WizardState } from '../lib/wizard-model';
import { previousPosition, type Position } from '../lib/wizard-position';

// Each screen's code loads when the screen is shown: the first screen (the welcome) carries none,
// and the others are fetched once it has shown and the page is idle (so that moving on never waits,
// and they do not compete with the first screen on a slow link).
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
// The phone handoff (and its QR code) is not needed to start: it shows once the first screen has.
const HandoffCard = lazyScreen(() => import('../components/handoff-card').then((m) => m.HandoffCard));
const stepScreens = {
  document: DocumentStep,
  biometric: BiometricStep,
  'custom-document': CustomDocumentStep,
  'custom-fields': CustomFieldsStep,
  bank: BankStep,
} satisfies Record<WizardStep['kind'], { preload(): Promise<void> }>;

/** Once the first screen has settled: the flow's other screens, ready before they are needed. */
function usePreloadScreens(steps: WizardStep[], settled: boolean) {
  const kinds = [...new Set(steps.map((s) => s.kind))].join(' ');
  useEffect(() => {
    if (!settled || !kinds) return;
    for (const kind of kinds.split(' ')) void stepScreens[kind as WizardStep['kind']].preload();
    for (const screen of [ReviewScreen, FailuresScreen, DoneScreen, HandoffCard]) void screen.preload();
  }, [kinds, settled]);
}

function StepScreen({ wizard, steps, state }: { wizard: Wizard; steps: WizardStep[]; state: WizardState }) {
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
    save: (capture: Capture) => wizard.dispatch({ type: 'captured', stepKey: step.key, capture }),
    next: () => wizard.dispatch({ type: 'stepDone' }),
    part: state.part,
    goPart: (part: string) => wizard.dispatch({ type: 'partOpened', part }),
  };
  // A key per step (and retake) so each screen starts from its own state.
  const key = `${step.key}-${state.retake?.inputId ?? ''}`;
  switch (step.kind) {
    case 'document':
      return <DocumentStep key={key} step={step} {...common} />;
    case 'biometric':
      return (
        <BiometricStep key={key} step={step} challenge={currentChallenge(state.verification)} {...common} />
      );
    case 'custom-document':
      return <CustomDocumentStep key={key} step={step} {...common} />;
    case 'custom-fields':
      return <CustomFieldsStep key={key} step={step} {...common} />;
    case 'bank':
      return <BankStep key={key} step={step} {...common} />;
  }
}

const welcomePosition = { screen: 'welcome', stepIndex: 0 } as const;

/** What the phone carries on with: the consent, and the document chosen per document step. */
function carryOf(state: WizardState, steps: WizardStep[], language: Language): HandoffRequest {
  const documents: HandoffRequest['documents'] = [];
  for (const step of steps) {
    const capture = state.captures[step.key];
    if (step.kind === 'document' && capture?.kind === 'document')
      documents.push({
        group: step.group,
        type: capture.type,
        country: capture.country,
        region: capture.region,
      });
  }
  return { consentedAt: state.consentedAt ?? new Date().toISOString(), documents, language };
}

export default function WizardPage({ flowId }: { flowId: string }) {
  const { t, i18n } = useTranslation('wizard');
  const wizard = useWizard(flowId);
  const { load, dispatch, consent } = wizard;
  const goTo = useCallback((position: Position) => dispatch({ type: 'moved', position }), [dispatch]);
  const loaded = load.phase === 'ready' || load.phase === 'welcome' ? load : null;
  const ready = load.phase === 'ready' ? load : null;
  const steps = useMemo(
    () => (loaded ? localizeSteps(loaded.steps, loaded.flow, i18n.language) : []),
    [loaded, i18n.language],
  );
  // Before consent the wizard is on its welcome screen and cannot move: the address says so.
  const back = useHistorySync(
    flowId,
    ready?.state ?? (loaded ? welcomePosition : null),
    steps,
    ready ? goTo : null,
  );
  const phoneFinished = useCallback(() => dispatch({ type: 'finished' }), [dispatch]);
  // The desktop's "continue on your phone": while the phone has the verification, the steps wait.
  const { handoff, show: showHandoff, hide: hideHandoff } = useHandoff(phoneFinished);
  const phoneActive = handoff.phase === 'shown' && !!handoff.state?.claimed;
  const phoneFirst = useComputer();
  const screenKey = ready ? `${ready.state.screen}-${ready.state.stepIndex}` : load.phase;
  // Moving focus to the new heading tells screen-reader and keyboard users the screen changed.
  const container = useFocusOnChange<HTMLDivElement>(screenKey, 'h1');
  const settled = useScreenSettled(!!loaded);
  usePreloadScreens(steps, settled);
  // The verification is created only now, with the consent the person just gave.
  const askPhone = () =>
    void showHandoff(async () => {
      const state = await consent({ stay: true });
      return {
        verificationId: state.verification.verificationId,
        carry: carryOf(state, steps, i18n.language),
      };
    });

  usePageTitle(t('title'));

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

  const { flow } = load;
  const state = load.phase === 'ready' ? load.state : null;
  const screen = state?.screen ?? 'welcome';
  const total = steps.length + 1;
  let title: string;
  let position: string | null = null;
  let current = -1;
  if (!state || screen === 'welcome') title = flowName(flow, i18n.language);
  else if (screen === 'steps') {
    title = stepTitle(t, steps[state.stepIndex], steps);
    position = t('stepOf', { n: state.stepIndex + 1, total });
    current = state.stepIndex;
  } else if (screen === 'review') {
    title = t('review.title');
    position = t('stepOf', { n: total, total });
    current = steps.length;
  } else if (screen === 'failures') {
    title = t('failures.title');
    current = steps.length;
  } else {
    title = t('done.title');
    current = total;
  }
  const previous = state ? previousPosition(state, steps) : null;
  const titles = [...steps.map((step) => stepTitle(t, step, steps)), t('review.title')];
  // The handoff's card (lazy, with its QR code) once asked for; on the steps it offers the choice too.
  const handoffCard = (
    // Its own boundary: the screen around it stays while the card's code arrives.
    <Suspense fallback={null}>
      <HandoffCard handoff={handoff} onShow={askPhone} onHide={hideHandoff} />
    </Suspense>
  );

  return (
    <div className={`wizard wizard-${screen}`} ref={container}>
      <div className="wizard-top">
        {previous ? (
          <button type="button" className="back-button" onClick={() => back(previous)}>
            <span aria-hidden="true">←</span> {t('actions.back')}
          </button>
        ) : screen === 'welcome' ? (
          <Link href="/" className="back-button">
            <span aria-hidden="true">←</span> {t('actions.back')}
          </Link>
        ) : null}
        {screen !== 'welcome' && <p className="wizard-flow">{flowName(flow, i18n.language)}</p>}
      </div>
      {screen !== 'welcome' && screen !== 'done' && <WizardStepper titles={titles} current={current} />}
      {position && <p className="wizard-position">{position}</p>}
      <h1 tabIndex={-1}>{title}</h1>
      <Suspense fallback={<p aria-live="polite">{t('loadingStep')}</p>}>
        {screen === 'welcome' && phoneActive && handoffCard}
        {screen === 'welcome' && !phoneActive && (
          <WelcomeScreen
            flow={flow}
            steps={steps}
            consented={!!state?.consentedAt}
            onConsent={() => consent()}
            onPhone={askPhone}
            phonePanel={handoff.phase === 'idle' ? null : handoffCard}
            phoneFirst={phoneFirst}
          />
        )}
        {state && screen === 'steps' && !phoneActive && (
          <StepScreen wizard={wizard} steps={steps} state={state} />
        )}
        {settled && state && screen === 'steps' && !state.retake && handoffCard}
        {state && screen === 'review' && (
          <ReviewScreen
            steps={steps}
            state={state}
            getBlob={wizard.getBlob}
            dispatch={wizard.dispatch}
            restart={() => void wizard.restart()}
          />
        )}
        {state && screen === 'failures' && (
          <FailuresScreen steps={steps} state={state} dispatch={wizard.dispatch} />
        )}
        {state && screen === 'done' && (
          <DoneScreen
            verificationId={state.verification.verificationId}
            showDecision={flow.showDecision}
            onRestart={() => void wizard.restart()}
          />
        )}
      </Suspense>
    </div>
  );
}

/**
 * The verification's liveness challenge as this release tells it (cues at their times): a wizard
 * state kept from an older release holds one without cues, which is recorded as no challenge (the
 * service then asks for the retake with the current one).
 */
const currentChallenge = ({ livenessChallenge }: WizardState['verification']) =>
  Array.isArray(livenessChallenge?.cuesMs) ? livenessChallenge : undefined;
