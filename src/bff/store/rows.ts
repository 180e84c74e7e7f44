import type { CreditCheckRecord, StoredEvent, VerificationSummary } from '@/shared/contract/bff-api';
import { identityStatus, type IdentityStatus } from '@/shared/contract/verification';
import { reviewDecision } from '@/shared/contract/verification';
import type { HandoffGrant, StoredReview } from './store';

// The rows of the store's tables in both dialects, as their drivers return them: PostgreSQL gives
// timestamps as Date and JSONB parsed, SQLite gives both as text. One mapper per table, so that
// both dialects answer with the same objects.

/** TIMESTAMPTZ (PostgreSQL) or ISO text (SQLite). */
export type Time = Date | string;
/** TIMESTAMPTZ (PostgreSQL) or epoch milliseconds (SQLite), for times compared with a clock. */
export type Epoch = Date | number;
type Json = Record<string, unknown>;

const iso = (value: Time) => (typeof value === 'string' ? value : value.toISOString());
/** A JSON column: parsed already (JSONB) or its text (SQLite). */
const jsonColumn = (value: Json | string) =>
  typeof value === 'string' ? (JSON.parse(value) as Json) : value;
const statusOf = (value: string): IdentityStatus => identityStatus.safeParse(value).data ?? 'pending';

/** Without `data`, whose form (JSONB or text) each store handles itself. */
export interface VerificationRow {
  id: string;
  identity: string | null;
  flow_id: string;
  flow_name: string | null;
  status: string;
  created_at: Time;
  updated_at: Time;
  last_event: string | null;
}

export const toSummary = (row: VerificationRow): VerificationSummary => ({
  id: row.id,
  identity: row.identity,
  flowId: row.flow_id,
  flowName: row.flow_name,
  status: statusOf(row.status),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  lastEvent: row.last_event,
});

export interface EventRow {
  id: string;
  kind: StoredEvent['kind'];
  event_name: string;
  body: string;
  verification_id: string | null;
  credit_check_id: string | null;
  received_at: Time;
}

/** The body as it came, kept as text: JSON when it is (it always is from the service). */
const parseBody = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

export const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  kind: row.kind,
  eventName: row.event_name,
  receivedAt: iso(row.received_at),
  // Only events with a valid signature are ever stored.
  signatureValid: true,
  body: parseBody(row.body),
});

export interface CreditCheckRow {
  id: string;
  country: CreditCheckRecord['country'];
  request: Json | string;
  status: CreditCheckRecord['status'];
  result: Json | string | null;
  error: string | null;
  created_at: Time;
  completed_at: Time | null;
}

export const toCreditCheck = (row: CreditCheckRow): CreditCheckRecord => ({
  id: row.id,
  country: row.country,
  request: jsonColumn(row.request),
  status: row.status,
  result: row.result === null ? null : jsonColumn(row.result),
  error: row.error,
  createdAt: iso(row.created_at),
  completedAt: row.completed_at === null ? null : iso(row.completed_at),
});

/** Times as Date (PostgreSQL) or epoch milliseconds (SQLite). */
export interface HandoffRow {
  verification_id: string;
  identity: string;
  flow_id: string;
  flow_name: string | null;
  expires_at: Date | number;
  used_at: Date | number | null;
  carry: string | null;
}

export const toHandoff = (row: HandoffRow): HandoffGrant => ({
  verificationId: row.verification_id,
  identity: row.identity,
  flowId: row.flow_id,
  flowName: row.flow_name,
  expiresAt: new Date(row.expires_at),
  claimedAt: row.used_at === null ? null : new Date(row.used_at),
  carry: row.carry ?? null,
});

export interface ReviewRow {
  id: string;
  verification_id: string;
  decision: string;
  reason: string;
  note: string | null;
  reviewer: string;
  decided_at: Time;
}

export const toReview = (row: ReviewRow): StoredReview => ({
  id: row.id,
  verificationId: row.verification_id,
  decision: reviewDecision.parse(row.decision),
  reason: row.reason,
  note: row.note,
  reviewer: row.reviewer,
  decidedAt: iso(row.decided_at),
});

/**
 * The tables as Kysely sees them, in both dialects (see `migrations/`). PostgreSQL's `seq` tie-break columns are left out: the store orders by the
 * dialect's insert order.
 */
export interface BffTables {
  verifications: VerificationRow & { data: unknown };
  session_verifications: { session_id: string; verification_id: string; identity: string; created_at: Time };
  events: EventRow & { body_hash: string; processed_at: Time | null };
  credit_checks: CreditCheckRow;
  staff_sessions: { id: string; expires_at: Epoch };
  media: { id: string; url: string };
  login_attempts: { key: string; count: number; reset_at: Epoch };
  handoff_tokens: HandoffRow & { token_hash: string; created_at: Epoch };
  /** `accepted`: BOOLEAN (PostgreSQL) or 0/1 (SQLite). */
  input_results: {
    verification_id: string;
    slot: string;
    accepted: boolean | number;
    code: string | null;
    at: Time;
  };
  reviews: ReviewRow;
  /** Ids of erased verifications, no personal data: nothing of them is written again. */
  erased_verifications: { id: string; erased_at: Time };
}
