import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import type { WizardStep } from './steps';
import { reach, type Position } from './wizard-position';
import {
  failuresToRetake,
  keepValidResults,
  planInputs,
  type Capture,
  type InputOutcome,
  type WizardState,
} from './wizard-model';

/**
 * Everything that moves the wizard, by name. The screens and hooks say what happened; where the
 * person goes next is decided here only (`wizardReducer`).
 */
export type WizardEvent =
  /** The person agreed to the notice on the welcome screen (`stay`: the computer shows a QR code). */
  | { type: 'consented'; at: string; stay: boolean }
  /** A capture was made (or changed) for a step; results it invalidates are dropped. */
  | { type: 'captured'; stepKey: string; capture: Capture }
  /** The person finished a step (Continue). */
  | { type: 'stepDone' }
  /** Back, a link, the browser's history: as far as the wizard allows. */
  | { type: 'moved'; position: Position }
  /** A step's sub-screen: a document's choice, front or back. */
  | { type: 'partOpened'; part: string }
  /** From the review: change or complete a step. */
  | { type: 'stepChosen'; stepIndex: number }
  /** The browser refused inputs before sending anything. */
  | { type: 'refusedHere'; results: Record<string, InputOutcome> }
  /** The upload started (kept, so that a reload mid-upload asks the status first). */
  | { type: 'sendStarted'; at: string }
  /** The upload ended without answers (cancelled, or a request-level failure). */
  | { type: 'sendStopped' }
  /** The service answered per input; `results` hold its answers and the browser's refusals. */
  | {
      type: 'sent';
      results: Record<string, InputOutcome>;
      skippedUploadWait?: boolean;
      /** The liveness challenge of the next attempt, when the service chose one. */
      livenessChallenge?: LivenessChallenge;
    }
  /** After a reload mid-upload: whether the service started processing (everything arrived). */
  | { type: 'statusFound'; processing: boolean }
  /** From the failures screen: retake one input. */
  | { type: 'retaken'; stepIndex: number; retake: NonNullable<WizardState['retake']> }
  /** The verification is finished elsewhere: the phone that took over, or its status asked for. */
  | { type: 'finished' };

/** A document step opens on its choice of document, so that history has an entry for it. */
export const firstPartOf = (step: WizardStep | undefined) =>
  step?.kind === 'document' ? 'choose' : undefined;

export function wizardReducer(state: WizardState, steps: WizardStep[], event: WizardEvent): WizardState {
  switch (event.type) {
    case 'consented': {
      const agreed = { ...state, consentedAt: state.consentedAt ?? event.at };
      return event.stay ? agreed : { ...agreed, screen: 'steps', stepIndex: 0, part: firstPartOf(steps[0]) };
    }
    case 'captured': {
      const captures = { ...state.captures, [event.stepKey]: event.capture };
      const results = keepValidResults(
        planInputs(steps, state.captures),
        planInputs(steps, captures),
        state.results,
      );
      return { ...state, captures, results };
    }
    case 'stepDone': {
      if (state.retake) {
        const left = failuresToRetake(planInputs(steps, state.captures), state.results);
        return { ...state, retake: undefined, part: undefined, screen: left.length ? 'failures' : 'review' };
      }
      if (state.stepIndex + 1 >= steps.length)
        return { ...state, screen: 'review', stepIndex: steps.length - 1, part: undefined };
      return { ...state, stepIndex: state.stepIndex + 1, part: firstPartOf(steps[state.stepIndex + 1]) };
    }
    case 'moved':
      return reach(state, steps, event.position);
    case 'partOpened':
      return { ...state, part: event.part };
    case 'stepChosen':
      return { ...state, screen: 'steps', stepIndex: event.stepIndex, retake: undefined };
    case 'refusedHere':
      return { ...state, results: { ...state.results, ...event.results }, screen: 'failures' };
    case 'sendStarted':
      return { ...state, sendingSince: event.at };
    case 'sendStopped':
      return { ...state, sendingSince: undefined };
    case 'sent': {
      const planned = planInputs(steps, state.captures);
      const allAccepted = planned.every((input) => event.results[input.id]?.state === 'accepted');
      const screen = allAccepted
        ? 'done'
        : failuresToRetake(planned, event.results).length
          ? 'failures'
          : 'review';
      return {
        ...state,
        ...(event.livenessChallenge
          ? { verification: { ...state.verification, livenessChallenge: event.livenessChallenge } }
          : {}),
        results: event.results,
        skippedUploadWait: event.skippedUploadWait ?? state.skippedUploadWait,
        sendingSince: undefined,
        screen,
      };
    }
    case 'statusFound':
      return { ...state, sendingSince: undefined, ...(event.processing ? { screen: 'done' as const } : {}) };
    case 'retaken':
      return { ...state, screen: 'steps', stepIndex: event.stepIndex, retake: event.retake };
    case 'finished':
      return { ...state, screen: 'done', sendingSince: undefined, part: undefined, retake: undefined };
  }
}
