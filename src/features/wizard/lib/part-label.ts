import type { TFunction } from '@/lib/i18n';
import type { PlannedInput } from './wizard-model';

/** What one input is, in words: "Front side", "Selfie", "Bank statement"… */
export function partLabel(t: TFunction, input: PlannedInput): string {
  switch (input.descriptor.inputType) {
    case 'document-photo':
    case 'custom-document-photo':
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
