import type { ReviewDecision } from './contract/verification';
import type { Flow } from './flow';

/**
 * The reasons a reviewer picks from for each decision when the flow names none
 * (`reviewReasons` in the flow JSON). Codes only: the console has their labels in every language.
 */
export const defaultReviewReasons = {
  verified: ['checksPassed', 'manualCheckPassed', 'checkWasWrong', 'other'],
  rejected: [
    'documentAltered',
    'faceMismatch',
    'documentUnreadable',
    'documentExpired',
    'suspectedFraud',
    'other',
  ],
  reviewNeeded: ['secondOpinion', 'moreFromPerson', 'checkNotPerformed', 'other'],
} as const satisfies Record<ReviewDecision, readonly string[]>;

/** A reason code that needs a note: "other" says nothing by itself. */
export const REASON_NEEDING_NOTE = 'other';

/** Longest reviewer note (characters). */
export const MAX_REVIEW_NOTE = 500;

/** The reason codes allowed for a decision on a verification of `flow` (its own list, or the default). */
export function reviewReasonCodes(flow: Pick<Flow, 'reviewReasons'> | undefined, decision: ReviewDecision) {
  const own = flow?.reviewReasons?.[decision];
  return own ? own.map((reason) => reason.code) : [...defaultReviewReasons[decision]];
}
