import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import type { CapturedInfo } from '../hooks/use-capture-check';
import type { WizardStep } from '../lib/steps';
import type { Capture, InputError, InputPart, StoredFile } from '../lib/wizard-model';

/** What every step screen gets from the wizard. */
export type StepProps<K extends WizardStep['kind']> = {
  step: Extract<WizardStep, { kind: K }>;
  capture: Capture | undefined;
  /** Set when the person came back to retake one failed input of this step. */
  retake?: { part: InputPart; code: InputError['code'] };
  storeFile: (file: File, inputId: string, extra?: Partial<StoredFile>) => Promise<StoredFile>;
  getBlob: (key: string) => Promise<Blob | undefined>;
  save: (capture: Capture) => void;
  next: () => void;
  /** The service's active liveness challenge, for a video step (none from a service that sets none). */
  challenge?: LivenessChallenge;
  /** The step's sub-screen from the wizard state (and the address), e.g. a document's side. */
  part?: string;
  goPart?: (part: string) => void;
};

/** What a stored capture keeps from the checks: the person's file name and the image hash. */
export const storedExtra = (info: CapturedInfo): Partial<StoredFile> => ({
  name: info.originalName,
  ...(info.phash ? { phash: info.phash } : {}),
  ...(info.pdf?.pageCount ? { pages: info.pdf.pageCount } : {}),
  ...(info.fromCamera ? { fromCamera: true } : {}),
});
