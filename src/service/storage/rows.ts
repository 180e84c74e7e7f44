import type { Generated, Selectable, Updateable } from 'kysely';
import type { IdentityStatus } from '@/shared/contract/verification';
import type { FileFormat } from '@/shared/file-format';

/**
 * The service's tables as Kysely sees them, alike in both dialects (see `migrations/`): times are
 * epoch milliseconds, booleans 0/1, JSON text.
 */
export interface VerificationTable {
  id: string;
  identity: string;
  flow_id: string;
  metadata: string | null;
  status: Generated<IdentityStatus>;
  expired: Generated<number>;
  skip_wait: Generated<number>;
  wait_until: number | null;
  expires_at: number | null;
  started_at: number | null;
  inputs_completed_at: number | null;
  completed_at: number | null;
  ip: string | null;
  ua: string | null;
  result: string | null;
  /** The active liveness challenge (JSON of `LivenessChallenge`), for a video flow. */
  challenge: string | null;
  created_at: number;
  updated_at: number;
}

export type VerificationRow = Selectable<VerificationTable>;
/** A change of a verification's fields. */
export type VerificationChange = Omit<Updateable<VerificationTable>, 'id'>;

export interface InputRow {
  verification_id: string;
  slot: string;
  position: number;
  input_type: string;
  status: 'accepted' | 'failed';
  error_code: string | null;
  descriptor: string;
  media_id: string | null;
  facts: string | null;
  updated_at: number;
}

export interface MediaTable {
  id: string;
  identity: string;
  verification_id: string | null;
  format: FileFormat;
  size: number;
  created_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  url: string;
  event_name: string;
  body: string;
  attempts: Generated<number>;
  next_at: number;
  delivered_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  created_at: number;
}

export interface CreditCheckTable {
  id: string;
  country: string;
  request: string;
  status: string;
  result: string | null;
  created_at: number;
}

/** The SQLite job queue's rows (`sqlite-jobs.ts`). */
export interface JobTable {
  name: string;
  key: string;
  run_at: number;
  payload: string;
  attempts: Generated<number>;
  locked_until: number | null;
  version: string;
}

/** A medium's bytes in the database, `CHUNK_BYTES` per row (`media-chunks.ts`). */
export interface MediaChunkTable {
  media_id: string;
  n: number;
  data: Buffer;
  created_at: number;
}

export interface ServiceTables {
  verifications: VerificationTable;
  inputs: InputRow;
  media: MediaTable;
  outbox: OutboxTable;
  credit_checks: CreditCheckTable;
  jobs: JobTable;
  media_chunks: MediaChunkTable;
}
