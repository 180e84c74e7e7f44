import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import { migrate } from '@/server-shared/pg-migrate';
import { pgMigrations } from './pg-migrations';
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
import type {
  BffStore,
  InputSlotResult,
  HandoffGrant,
  NewEvent,
  PendingEvent,
  StoredReview,
  StoredVerification,
  VerificationDataUpdate,
  VerificationFilter,
} from './store';

interface VerificationRow extends SummaryRow {
  data: unknown;
}

/** JSON for a JSONB parameter: pg would send a JS array as a PostgreSQL array, not as JSON. */
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** Key of the advisory lock that lets one starting instance migrate while the others wait. */
const MIGRATION_LOCK = 'idv-bff-migrations';

/**
 * The BFF's store on PostgreSQL (DATABASE_URL), shared by any number of BFF instances. Same
 * behaviour as SqliteStore: both pass `store.test.ts`.
 */
export class PgStore implements BffStore {
  /**
   * Locks of `exclusive` wait on their own connections, so that code running under a lock can
   * always get one of the main pool's: sharing one pool, enough waiting locks would starve it.
   */
  private readonly lockPool: pg.Pool;
  private readonly queue = new KeyQueue();

  private constructor(
    readonly pool: pg.Pool,
    readonly connectionString: string,
  ) {
    this.lockPool = new pg.Pool({ connectionString, max: 4 });
    this.lockPool.on('error', () => undefined);
  }

  /** Connects, migrates, and returns the store. */
  static async open(connectionString: string, options: { max?: number } = {}) {
    const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
    // An idle client whose server went away emits 'error'; the pool replaces it on the next query.
    pool.on('error', () => undefined);
    const client = await pool.connect();
    try {
      await migrate(client, pgMigrations, 'bff_migrations', MIGRATION_LOCK);
    } finally {
      client.release();
    }
    return new PgStore(pool, connectionString);
  }

  private async one<T extends pg.QueryResultRow>(text: string, values: unknown[]) {
    return (await this.pool.query<T>(text, values)).rows[0] as T | undefined;
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private verificationRow(id: string) {
    return this.one<VerificationRow>('SELECT * FROM verifications WHERE id = $1', [id]);
  }

  async bindVerification(
    sessionId: string,
    v: { verificationId: string; identity: string; flowId: string; flowName: string | null },
  ) {
    const row = await this.one<VerificationRow>(
      `WITH bound AS (
         INSERT INTO session_verifications VALUES ($1, $2, $3, now()) ON CONFLICT DO NOTHING
       )
       INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at)
         VALUES ($2, $3, $4, $5, 'pending', now(), now())
         ON CONFLICT (id) DO UPDATE SET identity = excluded.identity,
           flow_name = COALESCE(verifications.flow_name, excluded.flow_name)
       RETURNING *`,
      [sessionId, v.verificationId, v.identity, v.flowId, v.flowName],
    );
    return toSummary(row!);
  }

  async sessionOwnsIdentity(sessionId: string, identity: string) {
    return !!(await this.one(
      'SELECT 1 FROM session_verifications WHERE session_id = $1 AND identity = $2 LIMIT 1',
      [sessionId, identity],
    ));
  }

  async sessionOwnsVerification(sessionId: string, verificationId: string) {
    return !!(await this.one(
      'SELECT 1 FROM session_verifications WHERE session_id = $1 AND verification_id = $2',
      [sessionId, verificationId],
    ));
  }

  async createStaffSession(id: string, expiresAt: Date) {
    await this.pool.query('DELETE FROM staff_sessions WHERE expires_at < now()');
    await this.pool.query('INSERT INTO staff_sessions VALUES ($1, $2)', [id, expiresAt]);
  }

  async staffSessionExpiry(id: string) {
    const row = await this.one<{ expires_at: Date }>(
      'SELECT expires_at FROM staff_sessions WHERE id = $1 AND expires_at > now()',
      [id],
    );
    return row ? row.expires_at : null;
  }

  async deleteStaffSession(id: string) {
    await this.pool.query('DELETE FROM staff_sessions WHERE id = $1', [id]);
  }

  async countLoginAttempt(key: string, windowMs: number) {
    const row = await this.one<{ count: number }>(
      `INSERT INTO login_attempts VALUES ($1, 1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN login_attempts.reset_at <= now() THEN 1 ELSE login_attempts.count + 1 END,
           reset_at = CASE WHEN login_attempts.reset_at <= now() THEN excluded.reset_at ELSE login_attempts.reset_at END
       RETURNING count`,
      [key, windowMs],
    );
    // Now and then, forget the addresses whose minute is over.
    if (Math.random() < 0.01) await this.pool.query('DELETE FROM login_attempts WHERE reset_at <= now()');
    return row!.count;
  }

  async clearLoginAttempts(key: string) {
    await this.pool.query('DELETE FROM login_attempts WHERE key = $1', [key]);
  }

  async createHandoff(tokenHash: string, grant: Omit<HandoffGrant, 'claimedAt'>) {
    await this.pool.query(`DELETE FROM handoff_tokens WHERE expires_at < now() - interval '1 day'`);
    // One live link per verification: a new one revokes the unused ones issued before it (one
    // statement, so that two instances issuing at once leave one).
    await this.pool.query(
      `WITH revoked AS (DELETE FROM handoff_tokens WHERE verification_id = $2 AND used_at IS NULL)
       INSERT INTO handoff_tokens (token_hash, verification_id, identity, flow_id, flow_name, expires_at, carry)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        tokenHash,
        grant.verificationId,
        grant.identity,
        grant.flowId,
        grant.flowName,
        grant.expiresAt,
        grant.carry,
      ],
    );
  }

  async claimHandoff(tokenHash: string, now: Date) {
    const row = await this.one<HandoffRow>(
      `UPDATE handoff_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING *`,
      [tokenHash, now],
    );
    return row ? toHandoff(row) : null;
  }

  async latestHandoff(verificationId: string) {
    const row = await this.one<HandoffRow>(
      'SELECT * FROM handoff_tokens WHERE verification_id = $1 ORDER BY created_at DESC LIMIT 1',
      [verificationId],
    );
    return row ? toHandoff(row) : null;
  }

  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    // One waiter per key and instance on the database, the others queue here.
    const run = async () => {
      const client = await this.lockPool.connect();
      let broken = false;
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {
            // A connection that cannot unlock must not go back to the pool still holding the lock.
            broken = true;
          });
        }
      } finally {
        client.release(broken);
      }
    };
    return this.queue.run(key, run);
  }

  async recordEvent(e: NewEvent) {
    const inserted = await this.one<EventRow>(
      `INSERT INTO events (id, kind, event_name, body_hash, body, verification_id, credit_check_id, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now())
         ON CONFLICT (body_hash) DO NOTHING RETURNING *`,
      [randomUUID(), e.kind, e.eventName, e.bodyHash, e.rawBody, e.verificationId, e.creditCheckId],
    );
    if (inserted) return { event: toEvent(inserted), duplicate: false };
    const row = await this.one<EventRow>('SELECT * FROM events WHERE body_hash = $1', [e.bodyHash]);
    return { event: toEvent(row!), duplicate: true };
  }

  async markEventProcessed(id: string) {
    await this.pool.query('UPDATE events SET processed_at = now() WHERE id = $1', [id]);
  }

  async unprocessedEvents(): Promise<PendingEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT * FROM events WHERE processed_at IS NULL ORDER BY received_at, seq',
    );
    return rows.map((row) => ({
      event: toEvent(row),
      verificationId: row.verification_id,
      creditCheckId: row.credit_check_id,
    }));
  }

  async eventsOf(verificationId: string) {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT * FROM events WHERE verification_id = $1 ORDER BY received_at, seq',
      [verificationId],
    );
    return rows.map(toEvent);
  }

  async noteVerificationEvent(id: string, v: { flowId: string; eventName: string; at: string }) {
    // xmax = 0 only for a row this statement inserted.
    const row = await this.one<VerificationRow & { inserted: boolean }>(
      `INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at, last_event)
         VALUES ($1, NULL, $2, NULL, 'pending', $3, $3, $4)
         ON CONFLICT (id) DO UPDATE SET last_event = excluded.last_event, updated_at = excluded.updated_at
       RETURNING *, (xmax = 0) AS inserted`,
      [id, v.flowId, v.at, v.eventName],
    );
    return { summary: toSummary(row!), created: row!.inserted };
  }

  async saveVerificationData(id: string, v: VerificationDataUpdate) {
    const data = json(v.data);
    // Status polls fetch the same data again and again: nothing to write then.
    const existing = await this.one<VerificationRow & { same: boolean }>(
      'SELECT *, data IS NOT DISTINCT FROM $2::jsonb AS same FROM verifications WHERE id = $1',
      [id, data],
    );
    if (
      existing &&
      existing.same &&
      existing.status === v.status &&
      (existing.identity !== null || v.identity === null)
    ) {
      return { summary: toSummary(existing), changed: false, created: false };
    }
    const row = await this.one<VerificationRow & { inserted: boolean }>(
      `INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at, data)
         VALUES ($1, $2, $3, $4, $5, now(), now(), $6::jsonb)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data, status = excluded.status,
           identity = COALESCE(verifications.identity, excluded.identity),
           flow_name = COALESCE(excluded.flow_name, verifications.flow_name), updated_at = now()
       RETURNING *, (xmax = 0) AS inserted`,
      [id, v.identity, v.flowId, v.flowName, v.status, data],
    );
    return {
      summary: toSummary(row!),
      changed: row!.inserted || existing?.status !== v.status,
      created: row!.inserted,
    };
  }

  async getVerification(id: string): Promise<StoredVerification | null> {
    const row = await this.verificationRow(id);
    return row ? { summary: toSummary(row), data: row.data ?? null } : null;
  }

  async recordInputResults(identity: string, results: Omit<InputSlotResult, 'at'>[], at: Date) {
    if (!results.length) return;
    // One statement: the verification is looked up and every slot upserted together.
    await this.pool.query(
      `INSERT INTO input_results (verification_id, slot, accepted, code, at)
         SELECT v.id, r.slot, r.accepted, r.code, $5
           FROM (SELECT id FROM verifications WHERE identity = $1 ORDER BY created_at DESC LIMIT 1) v,
                unnest($2::text[], $3::boolean[], $4::text[]) AS r(slot, accepted, code)
         ON CONFLICT (verification_id, slot) DO UPDATE SET accepted = excluded.accepted, code = excluded.code, at = excluded.at`,
      [identity, results.map((r) => r.slot), results.map((r) => r.accepted), results.map((r) => r.code), at],
    );
  }

  async inputResultsOf(verificationId: string): Promise<InputSlotResult[]> {
    const { rows } = await this.pool.query<{
      slot: string;
      accepted: boolean;
      code: string | null;
      at: Date;
    }>('SELECT slot, accepted, code, at FROM input_results WHERE verification_id = $1 ORDER BY at, slot', [
      verificationId,
    ]);
    return rows.map((r) => ({ slot: r.slot, accepted: r.accepted, code: r.code, at: r.at.toISOString() }));
  }

  async deleteVerification(id: string, mediaIds: string[]) {
    await this.transaction(async (client) => {
      await client.query('DELETE FROM input_results WHERE verification_id = $1', [id]);
      await client.query('DELETE FROM reviews WHERE verification_id = $1', [id]);
      await client.query('DELETE FROM events WHERE verification_id = $1', [id]);
      await client.query('DELETE FROM session_verifications WHERE verification_id = $1', [id]);
      await client.query('DELETE FROM handoff_tokens WHERE verification_id = $1', [id]);
      await client.query('DELETE FROM verifications WHERE id = $1', [id]);
      if (mediaIds.length) await client.query('DELETE FROM media WHERE id = ANY($1::text[])', [mediaIds]);
    });
  }

  async listVerifications(filter: VerificationFilter) {
    const { rows } = await this.pool.query<VerificationRow>(
      `SELECT * FROM verifications WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR flow_id = $2)
         ORDER BY created_at DESC LIMIT 500`,
      [filter.status ?? null, filter.flowId ?? null],
    );
    return rows.map(toSummary);
  }

  async recordReview(r: StoredReview) {
    await this.pool.query(
      `INSERT INTO reviews (id, verification_id, decision, reason, note, reviewer, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [r.id, r.verificationId, r.decision, r.reason, r.note, r.reviewer, r.decidedAt],
    );
  }

  async deleteReview(id: string) {
    await this.pool.query('DELETE FROM reviews WHERE id = $1', [id]);
  }

  async reviewsOf(verificationId: string) {
    // seq breaks ties between decisions of the same millisecond: the later insert is newer.
    const { rows } = await this.pool.query<ReviewRow>(
      'SELECT * FROM reviews WHERE verification_id = $1 ORDER BY decided_at DESC, seq DESC',
      [verificationId],
    );
    return rows.map(toReview);
  }

  async createCreditCheck(record: CreditCheckRecord) {
    // A result that arrived before the service's answer keeps its status, but gains the request.
    const row = await this.one<CreditCheckRow>(
      `INSERT INTO credit_checks VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET request = excluded.request, created_at = excluded.created_at
       RETURNING *`,
      [
        record.id,
        record.country,
        json(record.request),
        record.status,
        json(record.result),
        record.error,
        record.createdAt,
        record.completedAt,
      ],
    );
    return toCreditCheck(row!);
  }

  async completeCreditCheck(
    id: string,
    v: Pick<CreditCheckRecord, 'country' | 'request' | 'status' | 'result' | 'error' | 'completedAt'>,
  ) {
    const row = await this.one<CreditCheckRow>(
      `INSERT INTO credit_checks VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, $6, $7, $7)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, result = excluded.result,
           error = excluded.error, completed_at = excluded.completed_at
       RETURNING *`,
      [id, v.country, json(v.request), v.status, json(v.result), v.error, v.completedAt],
    );
    return toCreditCheck(row!);
  }

  async listCreditChecks() {
    const { rows } = await this.pool.query<CreditCheckRow>(
      'SELECT * FROM credit_checks ORDER BY created_at DESC LIMIT 500',
    );
    return rows.map(toCreditCheck);
  }

  async rememberMedia(entries: { id: string; url: string }[]) {
    if (!entries.length) return;
    // One row per id (the last link wins): an upsert may not touch the same row twice.
    const byId = new Map(entries.map((e) => [e.id, e.url]));
    await this.pool.query(
      `INSERT INTO media SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT (id) DO UPDATE SET url = excluded.url`,
      [[...byId.keys()], [...byId.values()]],
    );
  }

  async mediaUrl(id: string) {
    const row = await this.one<{ url: string }>('SELECT url FROM media WHERE id = $1', [id]);
    return row?.url ?? null;
  }

  async verificationsUnchangedSince(cutoff: Date) {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM verifications WHERE updated_at < $1',
      [cutoff],
    );
    return rows.map((r) => r.id);
  }

  async deleteOlderThan(cutoff: Date) {
    return this.transaction(async (client) => {
      let count = 0;
      await client.query(
        'DELETE FROM input_results WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < $1)',
        [cutoff],
      );
      await client.query(
        'DELETE FROM reviews WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < $1)',
        [cutoff],
      );
      for (const text of [
        'DELETE FROM session_verifications WHERE verification_id IN (SELECT id FROM verifications WHERE updated_at < $1)',
        'DELETE FROM verifications WHERE updated_at < $1',
        'DELETE FROM events WHERE received_at < $1',
        'DELETE FROM credit_checks WHERE created_at < $1',
        'DELETE FROM handoff_tokens WHERE expires_at < $1',
      ]) {
        count += (await client.query(text, [cutoff])).rowCount ?? 0;
      }
      return count;
    });
  }

  async close() {
    await Promise.all([this.pool.end(), this.lockPool.end()]);
  }
}
