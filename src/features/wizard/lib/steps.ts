import type { CustomDocument, CustomFieldDefinition, DocumentStep, Flow } from '@/shared/flow';

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

const meritRank = {
  'document-verification': 0,
  'biometric-verification': 1,
  'custom-document': 2,
  'custom-fields': 3,
  'bank-account-data': 4,
} as const;

/**
 * The flow's merits in the fixed order, one step per document. Groups follow the flow position:
 * the first document is 0 and custom documents continue the numbering (service spec 2.3).
 */
export function buildSteps(flow: Pick<Flow, 'merits'>): WizardStep[] {
  const merits = [...flow.merits].sort((a, b) => meritRank[a.type] - meritRank[b.type]);
  const steps: WizardStep[] = [];
  let group = 0;
  for (const merit of merits) {
    switch (merit.type) {
      case 'document-verification':
        for (const document of merit.documents) {
          steps.push({ kind: 'document', key: `document-${group}`, group, document });
          group++;
        }
        break;
      case 'biometric-verification':
        steps.push({ kind: 'biometric', key: 'biometric', input: merit.input });
        break;
      case 'custom-document':
        for (const document of merit.documents) {
          steps.push({ kind: 'custom-document', key: `custom-document-${group}`, group, document });
          group++;
        }
        break;
      case 'custom-fields':
        steps.push({
          kind: 'custom-fields',
          key: 'custom-fields',
          country: merit.country,
          fields: merit.fields,
        });
        break;
      case 'bank-account-data':
        steps.push({
          kind: 'bank',
          key: 'bank',
          countries: merit.countries,
          institutions: merit.institutions,
        });
        break;
    }
  }
  return steps;
}
