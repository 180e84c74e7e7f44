import type { InputDescriptor } from './contract/send-input';
import type { FlowInput } from './contract/service-api';
import { documentSides, type Sides } from './document-sides';
import type { CustomDocument, DocumentStep, Flow, Merit } from './flow';

type MeritOf<T extends Merit['type']> = Extract<Merit, { type: T }>;

/** One document of the flow with its group number (service spec 4.1 rule 3: numbered across both merits). */
export type PlannedDocument =
  | { group: number; kind: 'document'; step: DocumentStep }
  | { group: number; kind: 'custom'; doc: CustomDocument };

/** The inputs a flow asks for, in flow order. */
/** The plan of a flow; the wizard plans from the merits alone. */
export interface FlowPlan<F extends Pick<Flow, 'merits'> = Flow> {
  flow: F;
  documents: PlannedDocument[];
  biometric: 'selfie-photo' | 'selfie-video' | null;
  customFields: MeritOf<'custom-fields'> | null;
  bank: MeritOf<'bank-account-data'> | null;
  /** Position of the biometric input: after every document-verification document. */
  biometricPosition: number;
  customFieldsPosition: number;
  bankPosition: number;
}

/**
 * A place for one input in the flow: both sides of a document are two slots, a retake of a slot
 * replaces what the slot held. `position` orders the slots as the flow does.
 */
export interface Slot {
  key: string;
  position: number;
  group?: number;
}

export function planFlow<F extends Pick<Flow, 'merits'>>(flow: F): FlowPlan<F> {
  const documents: PlannedDocument[] = [];
  let biometric: FlowPlan['biometric'] = null;
  let customFields: FlowPlan['customFields'] = null;
  let bank: FlowPlan['bank'] = null;
  for (const merit of flow.merits) {
    if (merit.type === 'document-verification') {
      for (const step of merit.documents) documents.push({ group: documents.length, kind: 'document', step });
    } else if (merit.type === 'biometric-verification') biometric = merit.input;
    else if (merit.type === 'custom-document') {
      for (const doc of merit.documents) documents.push({ group: documents.length, kind: 'custom', doc });
    } else if (merit.type === 'custom-fields') customFields = merit;
    else bank = merit;
  }
  const firstCustom = documents.findIndex((d) => d.kind === 'custom');
  const verificationDocs = firstCustom < 0 ? documents.length : firstCustom;
  // Two positions per document (front or multi, back), the biometric input between the merits.
  const docPosition = (group: number) => group * 2 + (group >= verificationDocs ? 1 : 0);
  const end = docPosition(documents.length);
  return {
    flow,
    documents,
    biometric,
    customFields,
    bank,
    biometricPosition: verificationDocs * 2,
    customFieldsPosition: end,
    bankPosition: end + 1,
  };
}

export const docBase = (plan: Pick<FlowPlan, 'documents'>, group: number) =>
  group * 2 + (plan.documents[group]?.kind === 'custom' ? 1 : 0);

/**
 * The slot vocabulary, one for the service and the BFF: a document's sides are `document:<group>:front`
 * and `document:<group>:back` (a custom document's multi-page PDF fills its front), the selfie or
 * video is `biometric`, then `custom-fields` and `bank-statement`. The service keeps its inputs by
 * slot; the BFF keeps send-input's latest answer per slot (why a refused input waits).
 */
export const documentSlotKey = (group: number, side: 'front' | 'back') => `document:${group}:${side}`;

/** The slot a descriptor fills (whether the flow has it is the service's question: `slotOf`). */
export function slotKeyOf(descriptor: InputDescriptor): string {
  switch (descriptor.inputType) {
    case 'document-photo':
      return documentSlotKey(descriptor.group, descriptor.data.page);
    case 'custom-document-photo':
      return documentSlotKey(descriptor.group, descriptor.data.page === 'back' ? 'back' : 'front');
    case 'selfie-photo':
    case 'selfie-video':
      return 'biometric';
    case 'custom-fields':
      return 'custom-fields';
    case 'financial-information-bank-statement-parsing-request':
      return 'bank-statement';
  }
}

/** Whether a slot is one of an input of the flow's list (`FlowInput`: its id, and group for a document). */
export function isSlotOfInput(slot: string, input: Pick<FlowInput, 'id' | 'group'>): boolean {
  if (input.group !== undefined) return slot.startsWith(`document:${input.group}:`);
  switch (input.id) {
    case 'selfie-photo':
    case 'selfie-video':
      return slot === 'biometric';
    case 'financial-information-bank-statement-parsing-request':
      return slot === 'bank-statement';
    default:
      return slot === input.id;
  }
}

export function sidesOf(type: string, country: string): Sides {
  return documentSides(type as Parameters<typeof documentSides>[0], country);
}

/** What the verification-creation answer lists as the flow's inputs (wire contract §3). */
export function plannedInputs(plan: FlowPlan): FlowInput[] {
  const inputs: FlowInput[] = [];
  for (const d of plan.documents.filter((x) => x.kind === 'document')) {
    inputs.push({ id: 'document-photo', group: d.group, status: 0 });
  }
  if (plan.biometric) inputs.push({ id: plan.biometric, status: 0 });
  for (const d of plan.documents.filter((x) => x.kind === 'custom')) {
    inputs.push({ id: 'custom-document-photo', group: d.group, status: 0 });
  }
  if (plan.customFields) inputs.push({ id: 'custom-fields', status: 0 });
  if (plan.bank) inputs.push({ id: 'financial-information-bank-statement-parsing-request', status: 0 });
  return inputs;
}

/**
 * Whether a document whose front is in still needs its back: a two-sided document does; a
 * one-or-two-sided one may (the person or the upload wait decides); a multi-page PDF of a custom
 * document carries every page.
 */
export function backOf(
  planned: PlannedDocument,
  front: { type: string; country?: string; page?: string },
): Sides {
  if (planned.kind === 'document') return sidesOf(front.type, front.country ?? '');
  return planned.doc.sides === 'two' && front.page !== 'multi' ? 'two' : 'one';
}
