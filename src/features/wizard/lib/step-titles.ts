import type { TFunction } from '@/lib/i18n';
import type { WizardStep } from './steps';

/** A step's title for headings and the review screen. */
export function stepTitle(t: TFunction, step: WizardStep, steps: WizardStep[]): string {
  switch (step.kind) {
    case 'document': {
      // A proof of residency is no identity document: named by its type, not "Identity document 2".
      if (isProofOfResidency(step)) return t('documentTypes.proof-of-residency');
      const documents = steps.filter(
        (s): s is typeof step => s.kind === 'document' && !isProofOfResidency(s),
      );
      return documents.length > 1
        ? t('steps.documentN', { n: documents.indexOf(step) + 1 })
        : t('steps.document');
    }
    case 'biometric':
      return step.input === 'selfie-video' ? t('steps.video') : t('steps.selfie');
    case 'custom-document':
      return step.document.name ?? t('customDocument.defaultName');
    case 'custom-fields':
      return t('steps.fields');
    case 'bank':
      return t('steps.bank');
  }
}

const isProofOfResidency = (step: Extract<WizardStep, { kind: 'document' }>) =>
  step.document.types.every((type) => type === 'proof-of-residency');
