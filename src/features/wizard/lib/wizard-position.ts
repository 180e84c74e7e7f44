import type { WizardStep } from './steps';
import { failuresToRetake, isStepComplete, planInputs, type WizardState } from './wizard-model';

/** Where the person is in the wizard, as the address bar says it (`?step=…`). */
export type Position =
  | { screen: 'welcome' | 'review' | 'failures' | 'done' }
  | { screen: 'steps'; stepIndex: number; part?: string; retake?: string };

const partPattern = /^[a-z]+$/;

/** `?step=2-front&retake=doc-0-front` → a position (steps counted from 1 in the address). */
export function parsePosition(search: string): Position | null {
  const params = new URLSearchParams(search);
  const step = params.get('step');
  if (!step) return null;
  if (step === 'welcome' || step === 'review' || step === 'failures' || step === 'done')
    return { screen: step };
  const match = /^(\d{1,3})(?:-([a-z]+))?$/.exec(step);
  if (!match) return null;
  const retake = params.get('retake');
  return {
    screen: 'steps',
    stepIndex: Number(match[1]) - 1,
    ...(match[2] && partPattern.test(match[2]) ? { part: match[2] } : {}),
    ...(retake && /^[a-z0-9-]{1,40}$/.test(retake) ? { retake } : {}),
  };
}

export function positionOf(state: Pick<WizardState, 'screen' | 'stepIndex' | 'part' | 'retake'>): Position {
  if (state.screen !== 'steps') return { screen: state.screen };
  return {
    screen: 'steps',
    stepIndex: state.stepIndex,
    ...(state.part ? { part: state.part } : {}),
    ...(state.retake ? { retake: state.retake.inputId } : {}),
  };
}

export function positionSearch(position: Position): string {
  if (position.screen !== 'steps') return `?step=${position.screen}`;
  const step = `${position.stepIndex + 1}${position.part ? `-${position.part}` : ''}`;
  return `?step=${step}${position.retake ? `&retake=${position.retake}` : ''}`;
}

/**
 * The state moved to a wanted position, as far as the person may go: no capture before consent,
 * no step past the first incomplete one, no review with a step missing, nothing after the end.
 */
export function reach(state: WizardState, steps: WizardStep[], wanted: Position): WizardState {
  if (state.screen === 'done') return state;
  const at = (screen: WizardState['screen'], extra: Partial<WizardState> = {}): WizardState => ({
    ...state,
    screen,
    part: undefined,
    retake: undefined,
    ...extra,
  });
  if (!state.consentedAt || wanted.screen === 'welcome') return at('welcome');
  const firstIncomplete = steps.findIndex((step) => !isStepComplete(step, state.captures[step.key]));
  const planned = planInputs(steps, state.captures);
  const failures = failuresToRetake(planned, state.results);
  switch (wanted.screen) {
    case 'done':
    case 'failures':
      if (failures.length) return at('failures');
      return firstIncomplete === -1 ? at('review') : at('steps', { stepIndex: firstIncomplete });
    case 'review':
      return firstIncomplete === -1 ? at('review') : at('steps', { stepIndex: firstIncomplete });
    case 'steps': {
      const limit = firstIncomplete === -1 ? steps.length - 1 : firstIncomplete;
      const stepIndex = Math.max(0, Math.min(wanted.stepIndex, limit));
      const failure = wanted.retake && failures.find((input) => input.id === wanted.retake);
      if (failure) {
        const outcome = state.results[failure.id];
        if (outcome?.state === 'failed') {
          return at('steps', {
            stepIndex: failure.stepIndex,
            part: wanted.part,
            retake: {
              inputId: failure.id,
              code: outcome.error.code,
              fileKey: state.retake?.inputId === failure.id ? state.retake.fileKey : failure.file?.stored.key,
            },
          });
        }
      }
      return at('steps', { stepIndex, part: stepIndex === wanted.stepIndex ? wanted.part : undefined });
    }
  }
}

/** The position the wizard's Back control goes to; null on the first screen and the last. */
export function previousPosition(state: WizardState, steps: WizardStep[]): Position | null {
  switch (state.screen) {
    case 'welcome':
    case 'done':
      return null;
    case 'failures':
      return { screen: 'review' };
    case 'review': {
      const last = steps.length - 1;
      return { screen: 'steps', stepIndex: last, ...lastPartOf(steps[last], state) };
    }
    case 'steps': {
      if (state.retake) return { screen: 'failures' };
      const step = steps[state.stepIndex];
      if (step?.kind === 'document') {
        // A step resumed without a sub-screen shows the front once one is captured.
        const capture = state.captures[step.key];
        const part = state.part ?? (capture?.kind === 'document' && capture.front ? 'front' : 'choose');
        if (part === 'back') return { screen: 'steps', stepIndex: state.stepIndex, part: 'front' };
        if (part === 'front') return { screen: 'steps', stepIndex: state.stepIndex, part: 'choose' };
      }
      if (state.stepIndex === 0) return { screen: 'welcome' };
      const previous = state.stepIndex - 1;
      return { screen: 'steps', stepIndex: previous, ...lastPartOf(steps[previous], state) };
    }
  }
}

/** Going back into a document step lands on its last side. */
function lastPartOf(step: WizardStep | undefined, state: WizardState): { part?: string } {
  if (step?.kind !== 'document') return {};
  const capture = state.captures[step.key];
  if (capture?.kind !== 'document') return {};
  return { part: capture.back && !capture.noBack ? 'back' : 'front' };
}
