import type { ErrorCode } from '@/shared/error-codes';
import type { FileFormat } from '@/shared/file-format';
import type { BankStatement } from '@/shared/contract/verification';

/** A file of a send-input request, already streamed to disk and sniffed by the route. */
export interface StoredFile {
  /** Absolute path of the stored bytes. */
  path: string;
  /** The name the client gave it (already checked for path characters). */
  filename: string;
  size: number;
  format: FileFormat;
}

/** The person a sample document shows, read from its `idv-person=` marker (wire contract §4, ext). */
export interface Person {
  fullName: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string; // YYYY-MM-DD
  documentNumber?: string;
  expiryDate?: string; // YYYY-MM-DD
  issueDate?: string;
  nationality?: string;
  sex?: string;
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
  /** The scenario code carried by the file's marker, if any. */
  scenario?: ErrorCode;
  person?: Person;
  /** Parsed statement of a bank-document input. */
  bankStatement?: BankStatement;
  /** Stills taken from a liveness video (media ids): a selfie frame and a sprite of frames. */
  frames?: { selfieMedia: string | null; spriteMedia: string | null };
  /** Text read from a PDF, trimmed (for custom documents). */
  text?: string;
}

export interface CheckOutcome {
  /** null when the input passes. */
  code: ErrorCode | null;
  /** Human-readable reason for the error message (no personal data). */
  message?: string;
  facts: InputFacts;
}
