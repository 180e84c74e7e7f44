import { z } from 'zod';
import type { InputState, StoredEvent } from '@/shared/contract/bff-api';
import { flowInputSchema, type FlowInput } from '@/shared/contract/service-api';
import type { Step, VerificationData } from '@/shared/contract/verification';
import { documentSides } from '@/shared/document-sides';
import { documentType } from '@/shared/flow';
import { isSlotOfInput } from '@/shared/flow-plan';
import type { InputSlotResult } from '../store/store';

const inputListSchema = z.array(flowInputSchema);

/** The newest of an input's slot results (a document's sides are slots of one input; `slotKeyOf`). */
function latestResultOf(results: InputSlotResult[], input: Pick<FlowInput, 'id' | 'group'>) {
  const own = results.filter((r) => isSlotOfInput(r.slot, input));
  // A refusal of either page keeps the document waiting, whichever page was answered last.
  const refused = own.filter((r) => !r.accepted);
  const pick = refused.length ? refused : own;
  return pick.reduce<InputSlotResult | undefined>((a, b) => (!a || b.at >= a.at ? b : a), undefined);
}

// A check this service does not have (`<step>.notPerformed`) is not a failure of the input.
const notPerformed = (step: Step) => step.error?.code.endsWith('.notPerformed') === true;
const firstError = (steps: Step[]) => steps.find((step) => step.error && !notPerformed(step))?.error?.code;

/**
 * Each input of a verification with where it stands and why (InputState), from what the BFF has:
 * the service's data (its input list, documents and steps), the events it received and the
 * send-input answers it passed on (`results`: why a refused input waits; the hosted API's input
 * list carries no code). Data without an input list (a service that gives none) gives none.
 */
export function inputStatesOf(
  data: VerificationData | null,
  events: StoredEvent[],
  results: InputSlotResult[] = [],
): InputState[] {
  if (!data) return [];
  const parsed = inputListSchema.safeParse((data as { inputs?: unknown }).inputs);
  if (!parsed.success) return [];
  const inputs = parsed.data.filter((input) => input.id !== 'connection-data');
  const status = data.identity.status;
  const postponed = events.some((event) => event.eventName === 'verification_postponed');
  // Before processing, the service lists only the documents received (in group order); after
  // it, every planned document, by group.
  const received = inputs
    .filter((input) => input.group !== undefined && (status !== 'pending' || input.status === 200))
    .sort((a, b) => a.group! - b.group!);
  const documentOf = (group: number) => data.documents[received.findIndex((i) => i.group === group)];

  return inputs.map((input): InputState => {
    const document = input.group === undefined ? undefined : documentOf(input.group);
    const base = {
      input: input.id,
      ...(input.group !== undefined ? { group: input.group } : {}),
      ...(document?.type ? { documentType: document.type } : {}),
    };
    const latest = latestResultOf(results, input);
    // A missing input whose last answer was a refusal is waiting for its retake too.
    if (input.status === 100 || (input.status === 0 && latest && !latest.accepted)) {
      const code = (latest && !latest.accepted ? latest.code : null) ?? input.errorCode;
      return { ...base, state: 'refused', ...(code ? { code } : {}) };
    }
    if (input.status === 0) return { ...base, state: 'notSent' };
    if (status === 'pending') {
      if (input.id === 'document-photo' && document && document.photos.length === 1) {
        const type = documentType.safeParse(document.type);
        const sides = type.success ? documentSides(type.data, document.country) : 'one';
        if (sides === 'two' || (sides === 'one-or-two' && postponed))
          return { ...base, state: 'waitingForBack' };
      }
      return { ...base, state: 'received' };
    }
    if (status === 'running') return { ...base, state: 'processing' };
    const biometric = input.id === 'selfie-photo' || input.id === 'selfie-video';
    const own =
      input.group !== undefined
        ? (document?.steps ?? [])
        : biometric
          ? data.steps.filter((s) => s.id === 'selfie' || s.id === 'liveness')
          : [];
    // The face match compares the selfie with a document: its failure is the selfie's too.
    const faceMatches = biometric
      ? data.documents.flatMap((d) => d.steps.filter((s) => s.id === 'facematch'))
      : [];
    const code = firstError(own) ?? firstError(faceMatches);
    const skipped = [...new Set(own.filter(notPerformed).map((s) => s.id))];
    const extra = skipped.length ? { notPerformed: skipped } : {};
    return code ? { ...base, state: 'failed', code, ...extra } : { ...base, state: 'checked', ...extra };
  });
}
