import { customFieldValuesSchema, fromCustomFields } from '@/shared/custom-fields';
import { documentSides, type Sides } from '@/shared/document-sides';
import type { CustomDocument, DocumentStep, Flow, Merit } from '@/shared/flow';
import type { FlowInput } from '@/shared/contract/service-api';
import type { InputDescriptor } from '@/shared/contract/send-input';
import { integrationError } from './errors';

type MeritOf<T extends Merit['type']> = Extract<Merit, { type: T }>;

/** One document of the flow with its group number (spec 4.1 rule 3: numbered across both merits). */
export type PlannedDocument =
  | { group: number; kind: 'document'; step: DocumentStep }
  | { group: number; kind: 'custom'; doc: CustomDocument };

/** The inputs a flow asks for, in flow order. */
export interface FlowPlan {
  flow: Flow;
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

export function planFlow(flow: Flow): FlowPlan {
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

const docBase = (plan: FlowPlan, group: number) =>
  group * 2 + (plan.documents[group]?.kind === 'custom' ? 1 : 0);

export const documentSlotKey = (group: number, side: 'front' | 'back') => `document:${group}:${side}`;

export function sidesOf(type: string, country: string): Sides {
  return documentSides(type as Parameters<typeof documentSides>[0], country);
}

/**
 * Places a descriptor in the flow or refuses the request (IntegrationError): a group that names
 * no document of its kind, a type, country, region, page or institution the flow does not allow,
 * invalid custom-field values.
 */
export function slotOf(plan: FlowPlan, descriptor: InputDescriptor, index: number): Slot {
  const at = `inputs[${index}]`;
  switch (descriptor.inputType) {
    case 'document-photo': {
      const planned = plan.documents[descriptor.group];
      if (!planned || planned.kind !== 'document') {
        throw integrationError(
          `${at}: group ${descriptor.group} is not a document-verification document of this flow`,
        );
      }
      const { type, country, region, page } = descriptor.data;
      if (!planned.step.types.includes(type))
        throw integrationError(`${at}: document type ${type} is not allowed here`);
      if (!planned.step.countries.includes(country))
        throw integrationError(`${at}: country ${country} is not allowed here`);
      const regions = planned.step.regions[country] ?? [];
      if (regions.length > 0 && !regions.includes(region ?? '')) {
        throw integrationError(`${at}: region must be one of ${regions.join(', ')}`);
      }
      if (regions.length === 0 && region) throw integrationError(`${at}: no region is used for ${country}`);
      if (page === 'back' && sidesOf(type, country) === 'one') {
        throw integrationError(`${at}: a ${type} of ${country} has one side`);
      }
      return {
        key: documentSlotKey(descriptor.group, page),
        position: docBase(plan, descriptor.group) + (page === 'back' ? 1 : 0),
        group: descriptor.group,
      };
    }
    case 'custom-document-photo': {
      const planned = plan.documents[descriptor.group];
      if (!planned || planned.kind !== 'custom') {
        throw integrationError(`${at}: group ${descriptor.group} is not a custom document of this flow`);
      }
      if (planned.doc.type !== descriptor.data.type) {
        throw integrationError(`${at}: group ${descriptor.group} is a ${planned.doc.type}`);
      }
      const back = descriptor.data.page === 'back';
      if (back && planned.doc.sides !== 'two')
        throw integrationError(`${at}: ${planned.doc.type} has one side`);
      return {
        key: documentSlotKey(descriptor.group, back ? 'back' : 'front'),
        position: docBase(plan, descriptor.group) + (back ? 1 : 0),
        group: descriptor.group,
      };
    }
    case 'selfie-photo':
    case 'selfie-video':
      if (plan.biometric !== descriptor.inputType) {
        throw integrationError(`${at}: this flow's biometric input is ${plan.biometric ?? 'absent'}`);
      }
      return { key: 'biometric', position: plan.biometricPosition };
    case 'custom-fields': {
      const merit = plan.customFields;
      if (!merit) throw integrationError(`${at}: this flow has no custom fields`);
      if (descriptor.data.country !== merit.country)
        throw integrationError(`${at}: custom fields are for ${merit.country}`);
      const known = new Set(merit.fields.map((f) => f.name));
      const unknown = descriptor.data.fields.find((f) => !known.has(f.name));
      if (unknown) throw integrationError(`${at}: unknown custom field ${unknown.name}`);
      const checked = customFieldValuesSchema(merit.fields).safeParse(
        fromCustomFields(descriptor.data.fields),
      );
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw integrationError(`${at}: custom field ${issue.path.join('.')}: ${issue.message}`);
      }
      return { key: 'custom-fields', position: plan.customFieldsPosition };
    }
    case 'financial-information-bank-statement-parsing-request': {
      const merit = plan.bank;
      if (!merit) throw integrationError(`${at}: this flow has no bank account data`);
      if (!merit.countries.includes(descriptor.data.country)) {
        throw integrationError(`${at}: bank statements are for ${merit.countries.join(', ')}`);
      }
      if (!merit.institutions.some((i) => i.institutionId === descriptor.data.institutionId)) {
        throw integrationError(`${at}: unknown institutionId ${descriptor.data.institutionId}`);
      }
      return { key: 'bank-statement', position: plan.bankPosition };
    }
  }
}

/** What the verification-creation answer lists as the flow's inputs (contract 3). */
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
