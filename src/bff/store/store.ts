import type { CreditCheckRecord, StoredEvent, VerificationSummary } from '@/shared/contract/bff-api';
import type { IdentityStatus, ReviewDecision } from '@/shared/contract/verification';

/** A verification as the BFF knows it: its summary and the latest data fetched from the service. */
export interface StoredVerification {
  summary: VerificationSummary;
  data: unknown;
}

export interface NewEvent {
  kind: StoredEvent['kind'];
  eventName: string;
  /** The exact body bytes as received (UTF-8 JSON). */
  rawBody: string;
  /** SHA-256 of the body: a redelivery has the same hash and is not a second event. */
  bodyHash: string;
  verificationId: string | null;
  creditCheckId: string | null;
}

export interface PendingEvent {
  event: StoredEvent;
  verificationId: string | null;
  creditCheckId: string | null;
}

export interface VerificationFilter {
  status?: IdentityStatus;
  flowId?: string;
}

/** The latest verification data fetched from the service, as the store keeps it. */
export interface VerificationDataUpdate {
  data: unknown;
  status: IdentityStatus;
  identity: string | null;
  flowId: string;
  flowName: string | null;
}

/** A desktop-to-phone handoff: one verification, one phone, once, for a few minutes. */
export interface HandoffGrant {
  verificationId: string;
  identity: string;
  flowId: string;
  flowName: string | null;
  expiresAt: Date;
  /** When the phone used the link; null while unused. */
  claimedAt: Date | null;
  /** What the computer hands over (its consent, the documents chosen), as JSON; null if nothing. */
  carry: string | null;
}

/**
 * The service's latest answer for one input slot of a verification, as send-input returned it:
 * `slot` is the descriptor's input type, with its group and page where it has them
 * (`document-photo:0:front`, `selfie-photo`); `code` is the refusal's code.
 */
export interface InputSlotResult {
  slot: string;
  accepted: boolean;
  code: string | null;
  /** ISO time of the answer. */
  at: string;
}

/** A reviewer's decision on a verification: who (a staff session's fingerprint), when, why. */
export interface StoredReview {
  id: string;
  verificationId: string;
  decision: ReviewDecision;
  reason: string;
  note: string | null;
  reviewer: string;
  /** ISO time. */
  decidedAt: string;
}

/**
 * Everything the BFF keeps: `SqlStore` on SQLite (one instance, the default) or on PostgreSQL
 * (DATABASE_URL, any number of instances). Both dialects pass `store.test.ts`.
 */
export interface BffStore {
  /** Binds a new verification to a browser session (and records it for the staff list). */
  bindVerification(
    sessionId: string,
    v: { verificationId: string; identity: string; flowId: string; flowName: string | null },
  ): Promise<VerificationSummary>;
  sessionOwnsIdentity(sessionId: string, identity: string): Promise<boolean>;
  sessionOwnsVerification(sessionId: string, verificationId: string): Promise<boolean>;

  createStaffSession(id: string, expiresAt: Date): Promise<void>;
  /** When the staff session ends, or null if it is unknown or over. */
  staffSessionExpiry(id: string): Promise<Date | null>;
  deleteStaffSession(id: string): Promise<void>;

  /**
   * Counts a staff login attempt of `key` (a client address) in its current window of
   * `windowMs`, shared by every instance; returns the count including this one.
   */
  countLoginAttempt(key: string, windowMs: number): Promise<number>;
  clearLoginAttempts(key: string): Promise<void>;

  /**
   * Runs `fn` while no other call for the same key runs, in this process or (PostgreSQL) in any
   * instance on the same database: fetch-and-save of one verification, so that older data never wins.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;

  /**
   * Records a handoff token (its SHA-256, never the token itself) and sweeps grants that expired
   * over a day ago (the desktop follows a claimed one until then).
   */
  createHandoff(tokenHash: string, grant: Omit<HandoffGrant, 'claimedAt'>): Promise<void>;
  /**
   * Uses a token: its grant, marked claimed, if it is known, unused and unexpired at `now`; else
   * null. Single use holds across instances: one conditional UPDATE, so two claims never both win.
   */
  claimHandoff(tokenHash: string, now: Date): Promise<HandoffGrant | null>;
  /** The newest grant of a verification (claimed or not), so that the desktop can follow the phone. */
  latestHandoff(verificationId: string): Promise<HandoffGrant | null>;

  /** Stores a webhook event once; `duplicate` when the same body was stored before. */
  recordEvent(event: NewEvent): Promise<{ event: StoredEvent; duplicate: boolean }>;
  markEventProcessed(id: string): Promise<void>;
  unprocessedEvents(): Promise<PendingEvent[]>;
  eventsOf(verificationId: string): Promise<StoredEvent[]>;

  /** A verification seen in an event; created if unknown. `created` tells a new one. */
  noteVerificationEvent(
    id: string,
    v: { flowId: string; eventName: string; at: string },
  ): Promise<{ summary: VerificationSummary; created: boolean }>;
  /** The latest data fetched from the service; `changed` when the status moved. */
  saveVerificationData(
    id: string,
    v: VerificationDataUpdate,
  ): Promise<{ summary: VerificationSummary; changed: boolean; created: boolean }>;
  getVerification(id: string): Promise<StoredVerification | null>;
  /**
   * Keeps send-input's per-input answer, one row per slot (a later answer replaces the earlier),
   * for the newest verification of `identity` the BFF knows (the one the service sends inputs to).
   */
  recordInputResults(identity: string, results: Omit<InputSlotResult, 'at'>[], at: Date): Promise<void>;
  inputResultsOf(verificationId: string): Promise<InputSlotResult[]>;
  listVerifications(filter: VerificationFilter): Promise<VerificationSummary[]>;

  /** Records a reviewer's decision (before it goes to the service). */
  recordReview(review: StoredReview): Promise<void>;
  /** Withdraws a decision the service refused. */
  deleteReview(id: string): Promise<void>;
  /** A verification's decisions, newest first. */
  reviewsOf(verificationId: string): Promise<StoredReview[]>;

  /**
   * Erasure: the verification, its events, its session bindings, its handoffs, its input results, its reviews and the media links given (those
   * its data pointed to). After it the BFF holds nothing of the verification but its id, as a
   * tombstone (`wasErased`), until the retention sweep.
   */
  deleteVerification(id: string, mediaIds: string[]): Promise<void>;
  /** Whether the verification was erased here: nothing of it may be written again. */
  wasErased(id: string): Promise<boolean>;

  /** Inserts a pending credit check, unless its result already arrived (then returns that). */
  createCreditCheck(record: CreditCheckRecord): Promise<CreditCheckRecord>;
  completeCreditCheck(
    id: string,
    v: Pick<CreditCheckRecord, 'country' | 'request' | 'status' | 'result' | 'error' | 'completedAt'>,
  ): Promise<CreditCheckRecord>;
  listCreditChecks(): Promise<CreditCheckRecord[]>;

  /** Media links seen in verification data, by their last path segment. */
  rememberMedia(entries: { id: string; url: string }[]): Promise<void>;
  mediaUrl(id: string): Promise<string | null>;

  /**
   * Retention: verifications (and their session bindings, input results and reviews) unchanged since `cutoff`, events
   * received, credit checks created and tombstones of erasures made before it. Returns how many rows went.
   */
  deleteOlderThan(cutoff: Date): Promise<number>;
  /** Retention: ids of the verifications unchanged since `cutoff` (erased one by one, with their media links and handoff links). */
  verificationsUnchangedSince(cutoff: Date): Promise<string[]>;
  /** One round trip to the database (the health probe): rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
