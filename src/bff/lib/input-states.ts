import { z } from 'zod';
import type { InputState, StoredEvent } from '@/shared/contract/bff-api';
import { flowInputSchema } from '@/shared/contract/service-api';
import type { Step, VerificationData } from '@/shared/contract/verification';
import { documentSides } from '@/shared/document-sides';
import type { DocumentType } from '@/shared/flow';

const inputListSchema = z.array(flowInputSchema);
const documentTypes = new Set<string>(['passport', 'national-id', 'driving-license', 'proof-of-residency']);

const firstError = (steps: Step[]) => steps.find((step) => step.error)?.error?.code;

/**
 * Each input of a verification with where it stands and why (InputState), from what the BFF has:
 * the service's data (its input list, documents and steps) and the events it received. Data
 * without an input list (a service that gives none) gives none.
 */
export function inputStatesOf(data: VerificationData | null, events: StoredEvent[]): InputState[] {
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
    if (input.status === 100)
      return { ...base, state: 'refused', ...(input.errorCode ? { code: input.errorCode } : {}) };
    if (input.status === 0) return { ...base, state: 'notSent' };
    if (status === 'pending') {
      if (input.id === 'document-photo' && document && document.photos.length === 1) {
        const sides = documentTypes.has(document.type)
          ? documentSides(document.type as DocumentType, document.country)
          : 'one';
        if (sides === 'two' || (sides === 'one-or-two' && postponed))
          return { ...base, state: 'waitingForBack' };
      }
      return { ...base, state: 'received' };
    }
    if (status === 'running') return { ...base, state: 'processing' };
    const code =
      input.group !== undefined
        ? firstError(document?.steps ?? [])
        : input.id === 'selfie-photo' || input.id === 'selfie-video'
          ? firstError(data.steps.filter((s) => s.id === 'selfie' || s.id === 'liveness'))
          : undefined;
    return code ? { ...base, state: 'failed', code } : { ...base, state: 'checked' };
  });
}
