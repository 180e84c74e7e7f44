import type { CreatedVerification } from '@/shared/contract/bff-api';
import type { ErrorCode } from '@/shared/error-codes';
import { extensionOf, mimeOf, type FileField, type FileFormat } from '@/shared/file-format';
import type { DocumentType } from '@/shared/flow';
import { documentSides } from '@/shared/document-sides';
import type { CustomField, InputDescriptor } from '@/shared/contract/send-input';
import type { ClientCheckCode } from '../checks/check-codes';
import type { WizardStep } from './steps';

/** A captured file; its bytes live in IndexedDB under `key`. */
export interface StoredFile {
  key: string;
  /** The name the person's file had (shown on the review screen), or a made-up one for camera shots. */
  name: string;
  size: number;
  type: string;
  /** Perceptual hash of an image, to compare a document's two sides in the browser. */
  phash?: string;
  /** A PDF's page count, for "PDF, 3 pages" on the review screen. */
  pages?: number;
  /** Taken with the camera here: its made-up name is never shown. */
  fromCamera?: boolean;
  /** When it was captured (ms): of two sides found alike before the send, the later is retaken. */
  capturedAt?: number;
}

export type DocumentCapture = {
  kind: 'document';
  type: DocumentType;
  country: string;
  region?: string;
  front?: StoredFile;
  back?: StoredFile;
  /** The person said this one-or-two-sided document has no back. */
  noBack?: boolean;
};
export type BiometricCapture = { kind: 'biometric'; file?: StoredFile };
export type CustomDocumentCapture = {
  kind: 'custom-document';
  mode: 'images' | 'pdf';
  front?: StoredFile;
  back?: StoredFile;
  pdf?: StoredFile;
};
export type CustomFieldsCapture = {
  kind: 'custom-fields';
  values: Record<string, string>;
  /** The descriptor's fields, built by the form with the shared toCustomFields (mappings included). */
  fields: CustomField[];
};
export type BankCapture = {
  kind: 'bank';
  country: string;
  institutionId: string;
  file?: StoredFile;
  encrypted?: boolean;
  /** Kept in memory only: never written to IndexedDB. */
  password?: string;
};
export type Capture =
  DocumentCapture | BiometricCapture | CustomDocumentCapture | CustomFieldsCapture | BankCapture;

/** The service's answer for an input, or the browser's refusal of it before the send (`client.*`). */
export type InputError = { type: string; code: ErrorCode | ClientCheckCode; message: string };
export type InputOutcome = { state: 'accepted' } | { state: 'failed'; error: InputError };

/** Where a retake goes: a step and the part of it (front, back, file, …). */
export type InputPart = 'front' | 'back' | 'multi' | 'file' | 'fields';

export interface PlannedInput {
  /** Stable id, also the base of the uploaded file's name: doc-0-front, selfie, bank… */
  id: string;
  stepKey: string;
  stepIndex: number;
  part: InputPart;
  descriptor: InputDescriptor;
  file?: { stored: StoredFile; field: FileField; uploadName: string };
}

export type Screen = 'welcome' | 'steps' | 'review' | 'failures' | 'done';

export interface WizardState {
  version: 1;
  flowId: string;
  verification: CreatedVerification;
  screen: Screen;
  stepIndex: number;
  /** A step's sub-screen (a document's choice, front or back), so that history and links reach it. */
  part?: string;
  /** When the person agreed to the notice on the welcome screen. */
  consentedAt?: string;
  /** Set while a send-input call is under way: after a reload, the status is asked before any send. */
  sendingSince?: string;
  captures: Record<string, Capture>;
  results: Record<string, InputOutcome>;
  /** The input being retaken, when the person came from the failures screen. */
  retake?: { inputId: string; code: InputError['code']; fileKey?: string };
  skippedUploadWait?: boolean;
}

/** A verification's wizard before anything is done: on its welcome screen, nothing captured. */
export function freshWizardState(flowId: string, verification: CreatedVerification): WizardState {
  return { version: 1, flowId, verification, screen: 'welcome', stepIndex: 0, captures: {}, results: {} };
}

/** MIME type → extension, from the formats the service accepts. */
const extensionOfType: Record<string, string> = Object.fromEntries(
  (Object.keys(mimeOf) as FileFormat[]).map((format) => [mimeOf[format], extensionOf[format]]),
);

/** A safe, unique upload name: the input id plus an extension from the type, or from the original name. */
export function uploadNameOf(id: string, file: StoredFile): string {
  const fromName = /\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1]?.toLowerCase();
  const ext = extensionOfType[file.type.split(';')[0]] ?? fromName ?? 'bin';
  return `${id}.${ext}`;
}

/** Every input the captures make, in flow order (the order the service requires). */
export function planInputs(steps: WizardStep[], captures: Record<string, Capture>): PlannedInput[] {
  const planned: PlannedInput[] = [];
  steps.forEach((step, stepIndex) => {
    const capture = captures[step.key];
    if (!capture) return;
    // A file input's descriptor names the upload, and that name comes from the input's id.
    const addFile = (
      id: string,
      part: InputPart,
      stored: StoredFile,
      field: FileField,
      descriptor: (filename: string) => InputDescriptor,
    ) => {
      const uploadName = uploadNameOf(id, stored);
      planned.push({
        stepKey: step.key,
        stepIndex,
        id,
        part,
        file: { stored, field, uploadName },
        descriptor: descriptor(uploadName),
      });
    };
    if (step.kind === 'document' && capture.kind === 'document') {
      for (const page of ['front', 'back'] as const) {
        const stored = capture[page];
        if (!stored || (page === 'back' && (capture.noBack || !hasBack(capture)))) continue;
        addFile(`doc-${step.group}-${page}`, page, stored, 'document', (filename) => ({
          inputType: 'document-photo',
          group: step.group,
          data: {
            type: capture.type,
            country: capture.country,
            ...(capture.region ? { region: capture.region } : {}),
            page,
            filename,
          },
        }));
      }
    } else if (step.kind === 'biometric' && capture.kind === 'biometric' && capture.file) {
      if (step.input === 'selfie-photo') {
        addFile('selfie', 'file', capture.file, 'selfie', (filename) => ({
          inputType: 'selfie-photo',
          data: { type: 'selfie-photo', filename },
        }));
      } else {
        addFile('video', 'file', capture.file, 'video', (filename) => ({
          inputType: 'selfie-video',
          data: { filename },
        }));
      }
    } else if (step.kind === 'custom-document' && capture.kind === 'custom-document') {
      const pages =
        capture.mode === 'pdf'
          ? ([['multi', capture.pdf]] as const)
          : ([
              ['front', capture.front],
              ['back', step.document.sides === 'two' ? capture.back : undefined],
            ] as const);
      for (const [page, stored] of pages) {
        if (!stored) continue;
        addFile(`custom-${step.group}-${page}`, page, stored, 'custom-document', (filename) => ({
          inputType: 'custom-document-photo',
          group: step.group,
          data: { type: step.document.type, page, filename },
        }));
      }
    } else if (step.kind === 'custom-fields' && capture.kind === 'custom-fields') {
      planned.push({
        stepKey: step.key,
        stepIndex,
        id: 'fields',
        part: 'fields',
        descriptor: {
          inputType: 'custom-fields',
          data: { country: step.country, fields: capture.fields },
        },
      });
    } else if (step.kind === 'bank' && capture.kind === 'bank' && capture.file) {
      addFile('bank', 'file', capture.file, 'bank-document', (filename) => ({
        inputType: 'financial-information-bank-statement-parsing-request',
        data: {
          type: 'bank-document',
          country: capture.country,
          institutionId: capture.institutionId,
          ...(capture.password ? { password: capture.password } : {}),
          filename,
        },
      }));
    }
  });
  return planned;
}

/** Whether a step's capture is complete enough to move on. */
export function isStepComplete(step: WizardStep, capture: Capture | undefined): boolean {
  if (!capture) return false;
  switch (capture.kind) {
    case 'document':
      return !!capture.front && (!!capture.back || !!capture.noBack || !hasBack(capture));
    case 'biometric':
      return !!capture.file;
    case 'custom-document':
      if (capture.mode === 'pdf') return !!capture.pdf;
      return (
        !!capture.front &&
        (step.kind !== 'custom-document' || step.document.sides !== 'two' || !!capture.back)
      );
    case 'custom-fields':
      return true;
    case 'bank':
      return !!capture.file && (!capture.encrypted || !!capture.password);
  }
}

/** Whether the document asks for a back side (two, or one-or-two sides). */
export const hasBack = (capture: Pick<DocumentCapture, 'type' | 'country'>) =>
  documentSides(capture.type, capture.country) !== 'one';

/** A fingerprint of an input: when it changes, the input's earlier outcome no longer applies. */
export const inputFingerprint = (input: PlannedInput) =>
  JSON.stringify([input.descriptor, input.file?.stored.key ?? null]);

/** Outcomes that still hold after the captures changed. */
export function keepValidResults(
  before: PlannedInput[],
  after: PlannedInput[],
  results: Record<string, InputOutcome>,
): Record<string, InputOutcome> {
  const old = new Map(before.map((i) => [i.id, inputFingerprint(i)]));
  const kept: Record<string, InputOutcome> = {};
  for (const input of after) {
    const outcome = results[input.id];
    if (outcome && old.get(input.id) === inputFingerprint(input)) kept[input.id] = outcome;
  }
  return kept;
}

/** Inputs to send now: all that are not accepted yet, in flow order. */
export const pendingInputs = (planned: PlannedInput[], results: Record<string, InputOutcome>) =>
  planned.filter((input) => results[input.id]?.state !== 'accepted');

const heldBack = (outcome: InputOutcome | undefined) =>
  outcome?.state === 'failed' && outcome.error.code === 'documentPhoto.FirstInputNotProcessed';

/** Failed inputs that need a new capture, the first failure first (FirstInputNotProcessed only waits). */
export function failuresToRetake(planned: PlannedInput[], results: Record<string, InputOutcome>) {
  return planned.filter((input) => results[input.id]?.state === 'failed' && !heldBack(results[input.id]));
}

/** Back sides the service held back behind their failed front: they go again, unchanged, with its retake. */
export function heldBackInputs(planned: PlannedInput[], results: Record<string, InputOutcome>) {
  return planned.filter((input) => heldBack(results[input.id]));
}

/**
 * The capture as a retake shows it: without the refused file (`fileKey`), so the screen asks for
 * a new one and cannot move on with it; once a new file is captured it shows as usual. A wrong
 * or missing PDF password keeps the file (the password field asks again).
 */
export function withoutPart(
  capture: Capture | undefined,
  part: InputPart,
  fileKey: string | undefined,
): Capture | undefined {
  if (!capture || !fileKey) return capture;
  const drop = (stored: StoredFile | undefined) => (stored?.key === fileKey ? undefined : stored);
  switch (capture.kind) {
    case 'document':
      return part === 'front' || part === 'back' ? { ...capture, [part]: drop(capture[part]) } : capture;
    case 'biometric':
      return { ...capture, file: drop(capture.file) };
    case 'custom-document':
      if (part === 'multi') return { ...capture, pdf: drop(capture.pdf) };
      return part === 'front' || part === 'back' ? { ...capture, [part]: drop(capture[part]) } : capture;
    case 'bank':
      return drop(capture.file)
        ? capture
        : { ...capture, file: undefined, encrypted: undefined, password: undefined };
    case 'custom-fields':
      return capture;
  }
}
