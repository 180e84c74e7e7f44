import type { CustomDocument, CustomFieldDefinition, DocumentStep, Flow } from '@/shared/flow';
import { planFlow } from '@/shared/flow-plan';
import { meritOrder } from '@/shared/merit-order';

/** One screen of the wizard that captures something, built from the flow (flow order). */
export type WizardStep =
  | { kind: 'document'; key: string; group: number; document: DocumentStep }
  | { kind: 'biometric'; key: 'biometric'; input: 'selfie-photo' | 'selfie-video' }
  | { kind: 'custom-document'; key: string; group: number; document: CustomDocument }
  | { kind: 'custom-fields'; key: 'custom-fields'; country: string; fields: CustomFieldDefinition[] }
  | {
      kind: 'bank';
      key: 'bank';
      countries: string[];
      institutions: { institutionId: string; name: string }[];
    };

/** The key of a document step (its captures are kept under it), from its group. */
export const documentStepKey = (group: number) => `document-${group}`;

/**
 * The flow's merits in the fixed order, one step per document, with the groups of the shared
 * flow plan (the same numbering the service checks descriptors against).
 */
export function buildSteps(flow: Pick<Flow, 'merits'>): WizardStep[] {
  const merits = [...flow.merits].sort((a, b) => meritOrder.indexOf(a.type) - meritOrder.indexOf(b.type));
  const plan = planFlow({ merits });
  const steps: WizardStep[] = [];
  for (const planned of plan.documents.filter((d) => d.kind === 'document')) {
    steps.push({
      kind: 'document',
      key: documentStepKey(planned.group),
      group: planned.group,
      document: planned.step,
    });
  }
  if (plan.biometric) steps.push({ kind: 'biometric', key: 'biometric', input: plan.biometric });
  for (const planned of plan.documents) {
    if (planned.kind !== 'custom') continue;
    steps.push({
      kind: 'custom-document',
      key: `custom-document-${planned.group}`,
      group: planned.group,
      document: planned.doc,
    });
  }
  if (plan.customFields) {
    const { country, fields } = plan.customFields;
    steps.push({ kind: 'custom-fields', key: 'custom-fields', country, fields });
  }
  if (plan.bank) {
    const { countries, institutions } = plan.bank;
    steps.push({ kind: 'bank', key: 'bank', countries, institutions });
  }
  return steps;
}
