import type { IdentityStatus } from '@/shared/contract/verification';

/** The rows of the service's tables as SQLite returns them (see `db.ts` for the schema). */
export interface VerificationRow {
  id: string;
  identity: string;
  flow_id: string;
  metadata: string | null;
  status: IdentityStatus;
  expired: number;
  skip_wait: number;
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
