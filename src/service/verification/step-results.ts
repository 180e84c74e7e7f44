import type { DocumentField, FinalStatus } from '@/shared/contract/verification';
import type { FaceMatch } from '@/checks/face/node/face-match';
import type { InputFacts } from '@/checks/inputs/node/types';
import type { InputRow } from '../storage/rows';

/**
 * What processing finds, as kept on the verification (its `result`, JSON) until it is shown in the
 * hosted API's shape (verification-view.ts), and the makers of a step's outcome.
 */
export type StepStatus = 0 | 100 | 200;
export interface StepResult {
  id: string;
  status: StepStatus;
  data: Record<string, unknown>;
  error: { type: string; code: string; message: string } | null;
  /**
   * A document check not performed for this document (document-check-step.ts): left out of the
   * hosted shape, shown with the extensions only. Never on the wire.
   */
  notApplicable?: true;
}
/** A read field as the hosted API names and describes it. */
export type ReadField = DocumentField;
export interface DocumentResult {
  type: string;
  country: string;
  region: string | null;
  group: number;
  /** Media ids; turned into URLs when the data is read, so that a changed PUBLIC_URL applies. */
  media: string[];
  steps: StepResult[];
  fields: Record<string, ReadField>;
}
export interface ProcessingResult {
  steps: StepResult[];
  documents: DocumentResult[];
  computed: { age: { data: number | null }; isDocumentExpired: { data: Record<string, boolean | null> } };
  financialInformation: { bankStatement?: unknown } | null;
  customFields: Record<string, string> | null;
  finalStatus: FinalStatus;
  /** Keys (see stepKeys) of the steps already completed. */
  done: string[];
}

export const ok = (id: string, data: Record<string, unknown> = {}): StepResult => ({
  id,
  status: 200,
  data,
  error: null,
});
export const failed = (
  id: string,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
): StepResult => ({
  id,
  status: 200,
  data,
  error: { type: 'StepError', code, message },
});

/**
 * A step whose check did not run here: the embedded service has no watch list, no document
 * template or alteration model and no government registry to ask (the hosted service has them).
 * It is reported as not performed, with the reason, and never as passed: the step carries an
 * error `<step>.notPerformed` (its `data` says `performed: false`). Such a step alone does not
 * decide the verification (every verification would otherwise end in review); a check that should
 * have run and could not (`.notChecked`) does.
 */
export const notPerformed = (id: string, reason: string, data: Record<string, unknown> = {}): StepResult =>
  failed(id, `${id}.notPerformed`, reason, { ...data, performed: false });
export const isNotPerformed = (code: string) => code.endsWith('.notPerformed');

/** Reasons a step was not performed, for staff (the console translates the code, shows this too). */
export const notPerformedReasons = {
  watchlists: 'no watch list is configured in the embedded service',
  registry: 'the embedded service cannot ask the government registry',
};

/** How a document's face match went: computed, could not run (why), or not applicable. */
export type MatchOutcome = FaceMatch | { notChecked: string } | undefined;

/** What an input's checks recorded (none for a missing input). */
export const factsOf = (row: InputRow | undefined): InputFacts =>
  row?.facts ? (JSON.parse(row.facts) as InputFacts) : {};
export const descriptorOf = (row: InputRow) =>
  JSON.parse(row.descriptor) as { data: Record<string, unknown> };

/** Keys of every step in the order processing completes them. */
export function stepKeys(result: ProcessingResult): string[] {
  return [
    ...result.steps.map((s) => `steps.${s.id}`),
    ...result.documents.flatMap((d, i) => d.steps.map((s) => `documents.${i}.${s.id}`)),
  ];
}
