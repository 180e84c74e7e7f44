import type { AlterationDetectionErrorCode, TemplateMatchingErrorCode } from '@/shared/error-codes';
import type { DocumentCheckId, DocumentCheckOutcome } from '@/checks/inputs/node/document-check-outcome';
import type { StepResult } from './step-results';

/** Messages of the failure codes, for staff, where the check gives none. */
const failureMessages: Record<TemplateMatchingErrorCode | AlterationDetectionErrorCode, string> = {
  'templateMatching.noMatchFound': 'The document matches no valid template or revision.',
  'templateMatching.revisionNotValid': 'The document is of a revision that is no longer valid.',
  'alterationDetection.digitalAlteration': 'The document shows signs of digital alteration.',
  'alterationDetection.physicalAlteration': 'The document shows signs of physical alteration.',
  'alterationDetection.invalidDocument': 'The photos do not show one genuine document.',
  'alterationDetection.fraudAttempt': 'The document shows signs of a fraud attempt.',
  'alterationDetection.negligence': 'The document cannot be accepted as presented.',
};

/**
 * The step of a document check (wire contract §6, "Template matching and alteration
 * detection"). Performed: status 200 with the check's `data`, `error: null` when it passed, else
 * `{type: "StepError", code, message}` with one of the step's codes. Not performed (no template
 * of the document's type, no model): never a pass. The step keeps the error `<step>.notPerformed`
 * with the reason and `performed: false`, which only the extensions show; in the hosted shape it
 * is left out of the document's steps, as the hosted API leaves out the checks that do not apply
 * to a document (a proof of residency has neither), which its clients take as not applicable.
 */
export function documentCheckStep<I extends DocumentCheckId>(
  id: I,
  outcome: DocumentCheckOutcome<I>,
): StepResult {
  if (!outcome.performed) {
    return {
      id,
      status: 200,
      data: { performed: false },
      error: { type: 'StepError', code: `${id}.notPerformed`, message: outcome.reason },
      notApplicable: true,
    };
  }
  const data: Record<string, unknown> = { ...outcome.data };
  if (outcome.passed) return { id, status: 200, data, error: null };
  return {
    id,
    status: 200,
    data,
    error: {
      type: 'StepError',
      code: outcome.code,
      message: outcome.message ?? failureMessages[outcome.code],
    },
  };
}

/** Whether a step is in the verification data: a check not performed only with the extensions. */
export const shownStep = (step: StepResult, extensions: boolean) => extensions || !step.notApplicable;
