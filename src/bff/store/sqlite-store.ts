import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { flushErasure, zeroWhatIsDeleted } from '@/server-shared/sqlite-erasure';
import { statementCache } from '@/server-shared/statement-cache';
import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import type {
  BffStore,
  HandoffGrant,
  InputSlotResult,
  NewEvent,
  PendingEvent,
  StoredReview,
  StoredVerification,
  VerificationDataUpdate,
  VerificationFilter,
} from './store';
import { KeyQueue } from './key-queue';
import {
  toCreditCheck,
  toEvent,
  toHandoff,
  toReview,
  toSummary,
  type CreditCheckRow,
  type EventRow,
  type HandoffRow,
  type ReviewRow,
  type VerificationRow as SummaryRow,
} from './rows';

const schema = `
CREATE TABLE IF NOT EXISTS session_verifications (
  session_id TEXT NOT NULL,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, verification_id)
);
CREATE INDEX IF NOT EXISTS session_identity ON session_verifications (session_id, identity);
CREATE TABLE IF NOT EXISTS verifications (
  id TEXT PRIMARY KEY,
  identity TEXT,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_event TEXT,
  data TEXT
);
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  event_name TEXT NOT NULL,
  body_hash TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  verification_id TEXT,
  credit_check_id TEXT,
  received_at TEXT NOT NULL,
  processed_at TEXT
);
CREATE INDEX IF NOT EXISTS events_verification ON events (verification_id, received_at);
CREATE TABLE IF NOT EXISTS credit_checks (
  id TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE TABLE IF NOT EXISTS staff_sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS media (id TEXT PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS login_attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS handoff_tokens (
  token_hash TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  carry TEXT
);
CREATE INDEX IF NOT EXISTS handoff_tokens_verification ON handoff_tokens (verification_id, created_at);
CREATE TABLE IF NOT EXISTS input_results (
  verification_id TEXT NOT NULL,
  slot TEXT NOT NULL,
  accepted INTEGER NOT NULL,
  code TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (verification_id, slot)
);
CREATE INDEX IF NOT EXISTS verifications_identity ON verifications (identity, created_at);
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  decision TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT,
  reviewer TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_verification ON reviews (verification_id, decided_at);
`;

/** A claimed grant is kept this long after it expired, for the desktop that follows it. */
const HANDOFF_KEPT_MS = 24 * 3600_000;

interface VerificationRow extends SummaryRow {
  data: string | null;
}

const now = () => new Date().toISOString();

/** The BFF's store in one SQLite file (DATA_DIR/bff.sqlite), separate from the service's. */
export class SqliteStore implements BffStore {
  private readonly db: Database.Database;
  private readonly sql: (source: string) => Database.Statement;
  private readonly queue = new KeyQueue();

  constructor(file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    zeroWhatIsDeleted(this.db);
    this.db.exec(schema);
    // A file made before handoffs carried anything gets the column.
    const columns = this.db.pragma('table_info(handoff_tokens)') as { name: string }[];
    if (!columns.some((c) => c.name === 'carry'))
      this.db.exec('ALTER TABLE handoff_tokens ADD COLUMN carry TEXT');
    this.sql = statementCache(this.db);
  }

  static inDataDir(dataDir: string) {
    return new SqliteStore(path.join(dataDir, 'bff.sqlite'));
  }

  private verificationRow(id: string) {
    return this.sql('SELECT * FROM verifications WHERE id = ?').get(id) as VerificationRow | undefined;
  }

  async bindVerification(
    sessionId: string,
    v: { verificationId: string; identity: string; flowId: string; flowName: string | null },
  ) {
    const at = now();
    this.db.transaction(() => {
      this.sql('INSERT OR IGNORE INTO session_verifications VALUES (?, ?, ?, ?)').run(
        sessionId,
        v.verificationId,
        v.identity,
        at,
      );
      this.sql(
        `INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'pending', ?, ?)
           ON CONFLICT (id) DO UPDATE SET identity = excluded.identity, flow_name = COALESCE(flow_name, excluded.flow_name)`,
      ).run(v.verificationId, v.identity, v.flowId, v.flowName, at, at);
    })();
    return toSummary(this.verificationRow(v.verificationId)!);
  }

  async sessionOwnsIdentity(sessionId: string, identity: string) {
    return !!this.sql('SELECT 1 FROM session_verifications WHERE session_id = ? AND identity = ?').get(
      sessionId,
      identity,
    );
  }

  async sessionOwnsVerification(sessionId: string, verificationId: string) {
    return !!this.sql('SELECT 1 FROM session_verifications WHERE session_id = ? AND verification_id = ?').get(
      sessionId,
      verificationId,
    );
  }

  async createStaffSession(id: string, expiresAt: Date) {
    this.sql('DELETE FROM staff_sessions WHERE expires_at < ?').run(Date.now());
    this.sql('INSERT INTO staff_sessions VALUES (?, ?)').run(id, expiresAt.getTime());
  }

  async staffSessionExpiry(id: string) {
    const row = this.sql('SELECT expires_at FROM staff_sessions WHERE id = ?').get(id) as
      { expires_at: number } | undefined;
    return row && row.expires_at > Date.now() ? new Date(row.expires_at) : null;
  }

  async deleteStaffSession(id: string) {
    this.sql('DELETE FROM staff_sessions WHERE id = ?').run(id);
  }

  async countLoginAttempt(key: string, windowMs: number) {
    const at = Date.now();
    const row = this.sql(
      `INSERT INTO login_attempts VALUES (?, 1, ?)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN reset_at <= ? THEN 1 ELSE count + 1 END,
           reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
       RETURNING count`,
    ).get(key, at + windowMs, at, at) as { count: number };
    // Now and then, forget the addresses whose window is over.
    if (Math.random() < 0.01) this.sql('DELETE FROM login_attempts WHERE reset_at <= ?').run(at);
    return row.count;
  }

  async clearLoginAttempts(key: string) {
    this.sql('DELETE FROM login_attempts WHERE key = ?').run(key);
  }

  async createHandoff(tokenHash: string, grant: Omit<HandoffGrant, 'claimedAt'>) {
    const now = Date.now();
    this.db.transaction(() => {
      this.sql('DELETE FROM handoff_tokens WHERE expires_at < ?').run(now - HANDOFF_KEPT_MS);
      // One live link per verification: a new one revokes the unused ones issued before it.
      this.sql('DELETE FROM handoff_tokens WHERE verification_id = ? AND used_at IS NULL').run(
        grant.verificationId,
      );
      this.sql(
        `INSERT INTO handoff_tokens (token_hash, verification_id, identity, flow_id, flow_name, created_at, expires_at, carry)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        tokenHash,
        grant.verificationId,
        grant.identity,
        grant.flowId,
        grant.flowName,
        now,
        grant.expiresAt.getTime(),
        grant.carry,
      );
    })();
  }

  async claimHandoff(tokenHash: string, now: Date) {
    const row = this.sql(
      `UPDATE handoff_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING *`,
    ).get(now.getTime(), tokenHash, now.getTime()) as HandoffRow | undefined;
    return row ? toHandoff(row) : null;
  }

  async latestHandoff(verificationId: string) {
    const row = this.sql(
      'SELECT * FROM handoff_tokens WHERE verification_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    ).get(verificationId) as HandoffRow | undefined;
    return row ? toHandoff(row) : null;
  }

  /** One process owns the SQLite file, so a chain of promises per key is lock enough. */
  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(key, fn);
  }

  async recordEvent(e: NewEvent) {
    const id = randomUUID();
    const inserted = this.sql(
      `INSERT OR IGNORE INTO events (id, kind, event_name, body_hash, body, verification_id, credit_check_id, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, e.kind, e.eventName, e.bodyHash, e.rawBody, e.verificationId, e.creditCheckId, now());
    const row = this.sql('SELECT * FROM events WHERE body_hash = ?').get(e.bodyHash) as EventRow;
    return { event: toEvent(row), duplicate: inserted.changes === 0 };
  }

  async markEventProcessed(id: string) {
    this.sql('UPDATE events SET processed_at = ? WHERE id = ?').run(now(), id);
  }

  async unprocessedEvents(): Promise<PendingEvent[]> {
    const rows = this.sql(
      'SELECT * FROM events WHERE processed_at IS NULL ORDER BY received_at',
    ).all() as EventRow[];
    return rows.map((row) => ({
      event: toEvent(row),
      verificationId: row.verification_id,
      creditCheckId: row.credit_check_id,
    }));
  }

  async eventsOf(verificationId: string) {
    const rows = this.sql('SELECT * FROM events WHERE verification_id = ? ORDER BY received_at, rowid').all(
      verificationId,
    ) as EventRow[];
    return rows.map(toEvent);
  }

  async noteVerificationEvent(id: string, v: { flowId: string; eventName: string; at: string }) {
    const existing = this.verificationRow(id);
    if (existing) {
      this.sql('UPDATE verifications SET last_event = ?, updated_at = ? WHERE id = ?').run(
        v.eventName,
        v.at,
        id,
      );
    } else {
      this.sql(
        `INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at, last_event)
           VALUES (?, NULL, ?, NULL, 'pending', ?, ?, ?)`,
      ).run(id, v.flowId, v.at, v.at, v.eventName);
    }
    return { summary: toSummary(this.verificationRow(id)!), created: !existing };
  }

  async saveVerificationData(id: string, v: VerificationDataUpdate) {
    const existing = this.verificationRow(id);
    const at = now();
    const json = JSON.stringify(v.data);
    // Status polls fetch the same data again and again: nothing to write then.
    if (
      existing &&
      existing.data === json &&
      existing.status === v.status &&
      (existing.identity !== null || v.identity === null)
    ) {
      return { summary: toSummary(existing), changed: false, created: false };
    }
    if (existing) {
      this.sql(
        `UPDATE verifications SET data = ?, status = ?, identity = COALESCE(identity, ?), flow_name = COALESCE(?, flow_name),
           updated_at = ? WHERE id = ?`,
      ).run(json, v.status, v.identity, v.flowName, at, id);
    } else {
      this.sql(
        `INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at, data)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, v.identity, v.flowId, v.flowName, v.status, at, at, json);
    }
    return {
      summary: toSummary(this.verificationRow(id)!),
      changed: !existing || existing.status !== v.status,
      created: !existing,
    };
  }

  async getVerification(id: string): Promise<StoredVerification | null> {
    const row = this.verificationRow(id);
    return row ? { summary: toSummary(row), data: row.data === null ? null : JSON.parse(row.data) } : null;
  }

  async recordInputResults(identity: string, results: Omit<InputSlotResult, 'at'>[], at: Date) {
    const row = this.sql(
      'SELECT id FROM verifications WHERE identity = ? ORDER BY created_at DESC LIMIT 1',
    ).get(identity) as { id: string } | undefined;
    if (!row) return;
    const upsert = this.sql(
      `INSERT INTO input_results VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (verification_id, slot) DO UPDATE SET accepted = excluded.accepted, code = excluded.code, at = excluded.at`,
    );
    this.db.transaction(() => {
      for (const r of results) upsert.run(row.id, r.slot, r.accepted ? 1 : 0, r.code, at.toISOString());
    })();
  }

  async inputResultsOf(verificationId: string): Promise<InputSlotResult[]> {
    const rows = this.sql('SELECT * FROM input_results WHERE verification_id = ? ORDER BY at, slot').all(
      verificationId,
    ) as { slot: string; accepted: number; code: string | null; at: string }[];
    return rows.map((r) => ({ slot: r.slot, accepted: r.accepted === 1, code: r.code, at: r.at }));
  }

  async deleteVerification(id: string, mediaIds: string[]) {
    this.db.transaction(() => {
      this.sql('DELETE FROM input_results WHERE verification_id = ?').run(id);
      this.sql('DELETE FROM reviews WHERE verification_id = ?').run(id);
      this.sql('DELETE FROM events WHERE verification_id = ?').run(id);
      this.sql('DELETE FROM session_verifications WHERE verification_id = ?').run(id);
      this.sql('DELETE FROM handoff_tokens WHERE verification_id = ?').run(id);
      this.sql('DELETE FROM verifications WHERE id = ?').run(id);
      const dropMedia = this.sql('DELETE FROM media WHERE id = ?');
      for (const mediaId of mediaIds) dropMedia.run(mediaId);
    })();
    flushErasure(this.db);
  }

  async listVerifications(filter: VerificationFilter) {
    const rows = this.sql(
      `SELECT * FROM verifications WHERE (@status IS NULL OR status = @status) AND (@flowId IS NULL OR flow_id = @flowId)
         ORDER BY created_at DESC LIMIT 500`,
    ).all({ status: filter.status ?? null, flowId: filter.flowId ?? null }) as VerificationRow[];
    return rows.map(toSummary);
  }

  async recordReview(r: StoredReview) {
    this.sql('INSERT INTO reviews VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      r.id,
      r.verificationId,
      r.decision,
      r.reason,
      r.note,
      r.reviewer,
      r.decidedAt,
    );
  }

  async deleteReview(id: string) {
    this.sql('DELETE FROM reviews WHERE id = ?').run(id);
  }

  async reviewsOf(verificationId: string) {
    // rowid breaks ties between decisions of the same millisecond: the later insert is newer.
    const rows = this.sql(
      'SELECT * FROM reviews WHERE verification_id = ? ORDER BY decided_at DESC, rowid DESC',
    ).all(verificationId) as ReviewRow[];
    return rows.map(toReview);
  }

  async createCreditCheck(record: CreditCheckRecord) {
    this.sql('INSERT OR IGNORE INTO credit_checks VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      record.id,
      record.country,
      JSON.stringify(record.request),
      record.status,
      record.result === null ? null : JSON.stringify(record.result),
      record.error,
      record.createdAt,
      record.completedAt,
    );
    // A result that arrived before the service's answer keeps its status, but gains the request.
    this.sql('UPDATE credit_checks SET request = ?, created_at = ? WHERE id = ?').run(
      JSON.stringify(record.request),
      record.createdAt,
      record.id,
    );
    return toCreditCheck(
      this.sql('SELECT * FROM credit_checks WHERE id = ?').get(record.id) as CreditCheckRow,
    );
  }

  async completeCreditCheck(
    id: string,
    v: Pick<CreditCheckRecord, 'country' | 'request' | 'status' | 'result' | 'error' | 'completedAt'>,
  ) {
    this.sql(
      `INSERT INTO credit_checks VALUES (@id, @country, @request, @status, @result, @error, @completedAt, @completedAt)
         ON CONFLICT (id) DO UPDATE SET status = @status, result = @result, error = @error, completed_at = @completedAt`,
    ).run({
      id,
      country: v.country,
      request: JSON.stringify(v.request),
      status: v.status,
      result: v.result === null ? null : JSON.stringify(v.result),
      error: v.error,
      completedAt: v.completedAt,
    });
    return toCreditCheck(this.sql('SELECT * FROM credit_checks WHERE id = ?').get(id) as CreditCheckRow);
  }

  async listCreditChecks() {
    const rows = this.sql(
      'SELECT * FROM credit_checks ORDER BY created_at DESC LIMIT 500',
    ).all() as CreditCheckRow[];
    return rows.map(toCreditCheck);
  }

  async rememberMedia(entries: { id: string; url: string }[]) {
    const insert = this.sql('INSERT OR REPLACE INTO media VALUES (?, ?)');
    this.db.transaction(() => {
      for (const e of entries) insert.run(e.id, e.url);
    })();
  }

  async mediaUrl(id: string) {
    const row = this.sql('SELECT url FROM media WHERE id = ?').get(id) as { url: string } | undefined;
    return row?.url ?? null;
  }

  async verificationsUnchangedSince(cutoff: Date) {
    const rows = this.sql('SELECT id FROM verifications WHERE updated_at < ?').all(cutoff.toISOString()) as {
      id: string;
    }[];
    return rows.map((r) => r.id);
  }

  async deleteOlderThan(cutoff: Date) {
    const at = cutoff.toISOString();
    let count = 0;
    this.db.transaction(() => {
      this.db
        .prepare(
          'DELETE FROM input_results WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < ?)',
        )
        .run(at);
      this.db
        .prepare(
          'DELETE FROM reviews WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < ?)',
        )
        .run(at);
      count += this.db
        .prepare(
          'DELETE FROM session_verifications WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < ?)',
        )
        .run(at).changes;
      count += this.db.prepare('DELETE FROM verifications WHERE updated_at < ?').run(at).changes;
      count += this.db.prepare('DELETE FROM events WHERE received_at < ?').run(at).changes;
      count += this.db.prepare('DELETE FROM credit_checks WHERE created_at < ?').run(at).changes;
      count += this.db
        .prepare('DELETE FROM handoff_tokens WHERE expires_at < ?')
        .run(cutoff.getTime()).changes;
    })();
    flushErasure(this.db);
    return count;
  }

  async close() {
    this.db.close();
  }
}
