import type { FaceCover } from '@/checks/face/face-cover';
import type { ErrorCode } from '@/shared/error-codes';
import type { FileFormat } from '@/shared/file-format';
import type { BankStatement } from '@/shared/contract/verification';
import type { DocumentPerson } from '@/checks/mrz/document-reading';
import type { DocumentCheckOutcomes } from './document-check-outcome';
import type { FieldKey } from '@/checks/document/field-layouts';

/** A file of a send-input request, already streamed to disk and sniffed by the route. */
export interface StoredFile {
  /** Absolute path of the stored bytes. */
  path: string;
  /** The name the client gave it (already checked for path characters). */
  filename: string;
  size: number;
  format: FileFormat;
}

/**
 * The person a document shows: what an MRZ or barcode states (shared with the browser), plus what
 * a sample's `idv-person=` marker may add (wire contract §4, ext).
 */
export interface Person extends DocumentPerson {
  address?: string;
  curp?: string;
  rfc?: string;
  cuit?: string;
  cpf?: string;
  /** Free extra fields, shown as document-reading fields. */
  extra?: Record<string, string>;
}

/** What a check measured and read; the service keeps it for later checks and for verification data. */
export interface InputFacts {
  width?: number;
  height?: number;
  /** Perceptual hash (hex) of an image, to compare the two sides of a document. */
  phash?: string;
  grayscale?: boolean;
  blurScore?: number;
  pageCount?: number;
  /** Duration of a video, when its container states one. */
  durationSeconds?: number;
  pdf417?: boolean;
  /** Whether a machine-readable zone was read (checked only where the flow requires one). */
  mrz?: boolean;
  /** How the document was found in the photo (`@/checks/document/document-outline`). */
  documentOutline?: 'framed' | 'fullFrame' | 'cropped' | 'none';
  /** Long side / short side of a framed document. */
  documentAspect?: number;
  /** Why a selfie was taken for a photo of a document (`@/checks/document/selfie-document`). */
  selfieDocument?: 'print' | 'portraitOnDocument' | 'farFaceWithPrint' | 'portraitOnCard';
  /** Share of the photo's blocks with a screen's colour ripples (`@/checks/document/screen-photo`). */
  screenShare?: number;
  /**
   * The largest cover seen over the document (`@/checks/document/occlusion`): its blocks inside the
   * hull of the document's print and beyond it.
   */
  coverBlocks?: { inside: number; outside: number };
  /** Faces found in the image (selfie, document portrait, sampled video frames: the most in one frame). */
  faces?: number;
  /** Mean eye openness of the largest face (`src/checks/face/face-rules.ts`). */
  eyeOpenness?: number;
  /** A selfie's face behind dark lenses or a mask: the measures (`src/checks/face/face-cover.ts`). */
  faceCover?: FaceCover;
  /**
   * Face descriptor of the largest face, for the face match (faces.ts `storedDescriptor`); added
   * when the verification is processed (src/service/face-descriptors.ts).
   */
  faceDescriptor?: number[];
  /** A liveness video's sampled frame (index, in time order) that shows exactly one face. */
  faceFrame?: number;
  /**
   * The active liveness challenge asked of a video and what its frames showed: `unchecked` when
   * they could not be read (the liveness step then fails, for a review), with the reason for staff;
   * `failed` on an accepted video when it was the last attempt (or none was left): a review too.
   */
  challenge?: {
    actions: string[];
    result: 'passed' | 'failed' | 'unchecked';
    reason?: string;
    /** Which attempt of the verification's challenge this video was. */
    attempt?: number;
  };
  /**
   * Checks of this input that could not run (FFmpeg failed, a model did not load, a worker died, a
   * timeout), each with its reason for staff. Such an input is accepted but never counts as
   * checked: processing reports the step it feeds as not checked and ends in `reviewNeeded`.
   */
  notChecked?: Partial<Record<NotCheckedKey, string>>;
  /** The scenario code carried by the file's marker, if any. */
  scenario?: ErrorCode;
  person?: Person;
  /** Parsed statement of a bank-document input. */
  bankStatement?: BankStatement;
  /** Stills taken from a liveness video (media ids): a selfie frame and a sprite of frames. */
  frames?: { selfieMedia: string | null; spriteMedia: string | null };
  /**
   * A document's template-matching and alteration-detection outcomes, on its front (they look at
   * both sides); a check left out was not performed (verification/document-check-step.ts).
   */
  documentChecks?: DocumentCheckOutcomes;
  /**
   * The printed fields (VIZ) read on a document side (`@/checks/viz`): the layout read, each field's
   * reading and how it compares with the zone or barcode of the same side.
   */
  printed?: { layout: string; fields: Partial<Record<FieldKey, PrintedFieldFact>>; ms: number };
  /** Where each of `person`'s facts was read: the zone, the barcode, the print or a sample's marker. */
  personSources?: Partial<Record<keyof Person, PersonSource>>;
  /** Text read from a PDF, trimmed (for custom documents). */
  text?: string;
}

/**
 * The checks an input's `notChecked` names: its faces, the descriptor of the face match, the
 * reading of a PDF (a custom document or a bank statement), or a document's printed fields.
 */
export type NotCheckedKey = 'faces' | 'faceMatch' | 'pdf' | 'printedFields';

export type PersonSource = 'mrz' | 'pdf417' | 'print' | 'marker';

/**
 * One printed field: `read` (its value, the OCR's confidence, and whether the zone or barcode
 * states the same), `blank` (its label printed, its place empty), `labelOnly` (its label read,
 * its value not), `unread` (nothing of it read).
 */
export type PrintedFieldFact =
  | {
      state: 'read';
      value: string;
      confidence: number;
      agreement: 'equal' | 'close' | 'different' | 'notStated';
    }
  | { state: 'blank' | 'labelOnly' | 'unread' };

export interface CheckOutcome {
  /** null when the input passes. */
  code: ErrorCode | null;
  /** Human-readable reason for the error message (no personal data). */
  message?: string;
  facts: InputFacts;
}
