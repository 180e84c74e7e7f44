import type { TFunction } from '@/lib/i18n';
import type { WizardStep } from './steps';
import type { PlannedInput } from './wizard-model';

/**
 * What one input is, in words: "Front side", "Selfie", "Bank statement"… A one-sided document
 * has no "front side": it is the document itself ("Passport", "Proof of address").
 */
export function partLabel(t: TFunction, input: PlannedInput, step?: WizardStep): string {
  switch (input.descriptor.inputType) {
    case 'document-photo':
      if (input.part === 'front' && step?.kind === 'document' && input.descriptor.data.type === 'passport')
        return t('documentTypes.passport');
      if (input.part === 'front' && input.descriptor.data.type === 'proof-of-residency')
        return t('documentTypes.proof-of-residency');
      return t(`parts.${input.part}`);
    case 'custom-document-photo':
      if (input.part === 'front' && step?.kind === 'custom-document' && step.document.sides !== 'two')
        return step.document.name ?? t('customDocument.defaultName');
      return t(`parts.${input.part}`);
    case 'selfie-photo':
      return t('biometric.selfieLabel');
    case 'selfie-video':
      return t('biometric.videoLabel');
    case 'custom-fields':
      return t('steps.fields');
    case 'financial-information-bank-statement-parsing-request':
      return t('bank.fileLabel');
  }
}
