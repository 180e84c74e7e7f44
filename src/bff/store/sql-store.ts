import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import { compiledOnce } from '@/server-shared/compiled-once';
import { postgresDialect, sqliteDialect, type StoreDialect } from './dialects';
import { toCreditCheck, toEvent, toHandoff, toReview, toSummary, type BffTables, type Time } from './rows';
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

/** A claimed grant is kept this long after it expired, for the desktop that follows it. */
const HANDOFF_KEPT_MS = 24 * 3600_000;

/** JSON text for a JSON column (pg would send a JS array as a PostgreSQL array, not as JSON). */
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** Rows per multi-row statement, well under both databases' limits on parameters. */
const BATCH = 500;

/**
 * Everything the BFF keeps, written once over Kysely: on SQLite (`SqlStore.inDataDir`, one
 * instance, the default) or on PostgreSQL (`SqlStore.postgres`, DATABASE_URL, any number of
 * instances). What differs between the two is in `dialects.ts`.
 */
export class SqlStore implements BffStore {
  private readonly db: Kysely<BffTables>;
  // The send-input path's queries and the status polls', compiled once (see `compiled-once.ts`).
  private readonly ownsIdentity;
  private readonly ownsVerification;
  private readonly verificationById;
  /** recordInputResults' statement, by its number of slots. */
  private readonly inputUpserts = new Map<number, (...values: unknown[]) => Promise<unknown[]>>();

  private constructor(private readonly dialect: StoreDialect) {
    const db = dialect.db;
    this.db = db;
    this.ownsIdentity = compiledOnce<unknown, [string, string]>(dialect.hot, 2, (sessionId, identity) =>
      db
        .selectFrom('session_verifications')
        .select(sql`1`.as('one'))
        .where('session_id', '=', sessionId)
        .where('identity', '=', identity)
        // A literal: SQLite runs a statement whose LIMIT is a parameter some µs slower.
        .limit(sql.lit(1)),
    );
    this.ownsVerification = compiledOnce<unknown, [string, string]>(
      dialect.hot,
      2,
      (sessionId, verificationId) =>
        db
          .selectFrom('session_verifications')
          .select(sql`1`.as('one'))
          .where('session_id', '=', sessionId)
          .where('verification_id', '=', verificationId),
    );
    this.verificationById = compiledOnce<BffTables['verifications'], [string]>(dialect.hot, 1, (id) =>
      db.selectFrom('verifications').selectAll().where('id', '=', id),
    );
  }

  /** One SQLite file, e.g. DATA_DIR/bff.sqlite. */
  static sqlite(file: string) {
    return new SqlStore(sqliteDialect(file));
  }

  static inDataDir(dataDir: string) {
    return SqlStore.sqlite(path.join(dataDir, 'bff.sqlite'));
  }

  /** Connects, migrates (under an advisory lock: instances starting together are safe), and returns the store. */
  static async postgres(connectionString: string, options: { max?: number } = {}) {
    return new SqlStore(await postgresDialect(connectionString, options));
  }

  /** PostgreSQL's pool and URL (for the staff event bus); undefined on SQLite. */
  get postgres() {
    return this.dialect.postgres;
  }

  private async verificationRow(id: string) {
    return (await this.verificationById(id))[0];
  }

  async bindVerification(
    sessionId: string,
    v: { verificationId: string; identity: string; flowId: string; flowName: string | null },
  ) {
    const now = this.dialect.now();
    const row = await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('session_verifications')
        .values({
          session_id: sessionId,
          verification_id: v.verificationId,
          identity: v.identity,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return trx
        .insertInto('verifications')
        .values({
          id: v.verificationId,
          identity: v.identity,
          flow_id: v.flowId,
          flow_name: v.flowName,
          status: 'pending',
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            identity: eb.ref('excluded.identity'),
            flow_name: eb.fn.coalesce('verifications.flow_name', 'excluded.flow_name'),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return toSummary(row);
  }

  async sessionOwnsIdentity(sessionId: string, identity: string) {
    return (await this.ownsIdentity(sessionId, identity)).length > 0;
  }

  async sessionOwnsVerification(sessionId: string, verificationId: string) {
    return (await this.ownsVerification(sessionId, verificationId)).length > 0;
  }

  async createStaffSession(id: string, expiresAt: Date) {
    await this.db.deleteFrom('staff_sessions').where('expires_at', '<', this.dialect.nowEpoch()).execute();
    await this.db
      .insertInto('staff_sessions')
      .values({ id, expires_at: this.dialect.epoch(expiresAt) })
      .execute();
  }

  async staffSessionExpiry(id: string) {
    const row = await this.db
      .selectFrom('staff_sessions')
      .select('expires_at')
      .where('id', '=', id)
      .where('expires_at', '>', this.dialect.nowEpoch())
      .executeTakeFirst();
    return row ? new Date(row.expires_at) : null;
  }

  async deleteStaffSession(id: string) {
    await this.db.deleteFrom('staff_sessions').where('id', '=', id).execute();
  }

  async countLoginAttempt(key: string, windowMs: number) {
    const d = this.dialect;
    const row = await this.db
      .insertInto('login_attempts')
      .values({ key, count: 1, reset_at: d.nowEpoch(windowMs) })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const over = eb('login_attempts.reset_at', '<=', d.nowEpoch());
          return {
            count: eb
              .case()
              .when(over)
              .then(1)
              .else(eb('login_attempts.count', '+', 1))
              .end(),
            reset_at: eb
              .case()
              .when(over)
              .then(eb.ref('excluded.reset_at'))
              .else(eb.ref('login_attempts.reset_at'))
              .end(),
          };
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    // Now and then, forget the addresses whose window is over.
    if (Math.random() < 0.01)
      await this.db.deleteFrom('login_attempts').where('reset_at', '<=', d.nowEpoch()).execute();
    return row.count;
  }

  async clearLoginAttempts(key: string) {
    await this.db.deleteFrom('login_attempts').where('key', '=', key).execute();
  }

  async createHandoff(tokenHash: string, grant: Omit<HandoffGrant, 'claimedAt'>) {
    const d = this.dialect;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('handoff_tokens').where('expires_at', '<', d.nowEpoch(-HANDOFF_KEPT_MS)).execute();
      // One live link per verification: a new one revokes the unused ones issued before it.
      await trx
        .deleteFrom('handoff_tokens')
        .where('verification_id', '=', grant.verificationId)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('handoff_tokens')
        .values({
          token_hash: tokenHash,
          verification_id: grant.verificationId,
          identity: grant.identity,
          flow_id: grant.flowId,
          flow_name: grant.flowName,
          created_at: d.nowEpoch(),
          expires_at: d.epoch(grant.expiresAt),
          carry: grant.carry,
        })
        .execute();
    });
  }

  async claimHandoff(tokenHash: string, now: Date) {
    const at = this.dialect.epoch(now);
    const row = await this.db
      .updateTable('handoff_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    return row ? toHandoff(row) : null;
  }

  async latestHandoff(verificationId: string) {
    const row = await this.db
      .selectFrom('handoff_tokens')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('created_at', 'desc')
      // PostgreSQL's created_at has microseconds; SQLite's milliseconds tie, its rowid does not.
      .$if(this.dialect.name === 'sqlite', (q) => q.orderBy(this.dialect.insertOrder, 'desc'))
      .limit(1)
      .executeTakeFirst();
    return row ? toHandoff(row) : null;
  }

  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.dialect.exclusive(key, fn);
  }

  async recordEvent(e: NewEvent) {
    const inserted = await this.db
      .insertInto('events')
      .values({
        id: randomUUID(),
        kind: e.kind,
        event_name: e.eventName,
        body_hash: e.bodyHash,
        body: e.rawBody,
        verification_id: e.verificationId,
        credit_check_id: e.creditCheckId,
        received_at: this.dialect.now(),
      })
      .onConflict((oc) => oc.column('body_hash').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { event: toEvent(inserted), duplicate: false };
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('body_hash', '=', e.bodyHash)
      .executeTakeFirstOrThrow();
    return { event: toEvent(row), duplicate: true };
  }

  async markEventProcessed(id: string) {
    await this.db
      .updateTable('events')
      .set({ processed_at: this.dialect.now() })
      .where('id', '=', id)
      .execute();
  }

  async unprocessedEvents(): Promise<PendingEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('processed_at', 'is', null)
      .orderBy('received_at')
      .orderBy(this.dialect.insertOrder)
      .execute();
    return rows.map((row) => ({
      event: toEvent(row),
      verificationId: row.verification_id,
      creditCheckId: row.credit_check_id,
    }));
  }

  async eventsOf(verificationId: string) {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('received_at')
      .orderBy(this.dialect.insertOrder)
      .execute();
    return rows.map(toEvent);
  }

  /**
   * An upsert of one verification that tells whether it inserted: PostgreSQL says so in the same
   * statement (several instances may race); on SQLite the transaction holds the only connection,
   * so a look first is exact.
   */
  private async upsertVerification(
    id: string,
    write: (db: Kysely<BffTables>) => Promise<BffTables['verifications'] & { inserted?: boolean | null }>,
  ) {
    const d = this.dialect;
    if (d.inserted) {
      const row = await write(this.db);
      return { row, created: row.inserted === true };
    }
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('verifications')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      const row = await write(trx);
      return { row, created: !before };
    });
  }

  async noteVerificationEvent(id: string, v: { flowId: string; eventName: string; at: string }) {
    const d = this.dialect;
    const { row, created } = await this.upsertVerification(id, (q) =>
      q
        .insertInto('verifications')
        .values({
          id,
          identity: null,
          flow_id: v.flowId,
          flow_name: null,
          status: 'pending',
          created_at: v.at,
          updated_at: v.at,
          last_event: v.eventName,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            last_event: eb.ref('excluded.last_event'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .returningAll()
        .$if(d.inserted !== null, (qb) => qb.returning(d.inserted!.as('inserted')))
        .executeTakeFirstOrThrow(),
    );
    return { summary: toSummary(row), created };
  }

  async saveVerificationData(id: string, v: VerificationDataUpdate) {
    const d = this.dialect;
    const now = d.now();
    const data = json(v.data);
    // Status polls fetch the same data again and again: nothing to write then.
    const existing = await this.db
      .selectFrom('verifications')
      .selectAll()
      .select(d.sameData(data).as('same'))
      .where('id', '=', id)
      .executeTakeFirst();
    if (
      existing &&
      // SQLite answers 0/1.
      !!existing.same &&
      existing.status === v.status &&
      (existing.identity !== null || v.identity === null)
    ) {
      return { summary: toSummary(existing), changed: false, created: false };
    }
    const { row, created } = await this.upsertVerification(id, (q) =>
      q
        .insertInto('verifications')
        .values({
          id,
          identity: v.identity,
          flow_id: v.flowId,
          flow_name: v.flowName,
          status: v.status,
          created_at: now,
          updated_at: now,
          data,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            data: eb.ref('excluded.data'),
            status: eb.ref('excluded.status'),
            identity: eb.fn.coalesce('verifications.identity', 'excluded.identity'),
            flow_name: eb.fn.coalesce('excluded.flow_name', 'verifications.flow_name'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .returningAll()
        .$if(d.inserted !== null, (qb) => qb.returning(d.inserted!.as('inserted')))
        .executeTakeFirstOrThrow(),
    );
    return {
      summary: toSummary(row),
      changed: created || existing?.status !== v.status,
      created,
    };
  }

  async getVerification(id: string): Promise<StoredVerification | null> {
    const row = await this.verificationRow(id);
    return row
      ? { summary: toSummary(row), data: row.data === null ? null : this.dialect.readJson(row.data) }
      : null;
  }

  async recordInputResults(identity: string, results: Omit<InputSlotResult, 'at'>[], at: Date) {
    if (!results.length) return;
    const d = this.dialect;
    // One row per slot (the last answer wins): an upsert may not touch the same row twice.
    const slots = [...new Map(results.map((r) => [r.slot, r])).values()];
    let upsert = this.inputUpserts.get(slots.length);
    if (!upsert) {
      upsert = this.inputUpsert(slots.length);
      this.inputUpserts.set(slots.length, upsert);
    }
    await upsert(identity, d.time(at), ...slots.flatMap((r) => [r.slot, d.bool(r.accepted), r.code]));
  }

  /**
   * One statement, on the send-input path: the identity's newest verification is looked up and
   * every slot upserted together. Values: identity, at, then slot, accepted, code of each slot.
   */
  private inputUpsert(count: number) {
    type Answer = { slot: string; accepted: boolean | number; code: string | null };
    return compiledOnce<unknown, unknown[]>(this.dialect.hot, 2 + 3 * count, (identity, at, ...answers) => {
      // The CAST gives PostgreSQL the type of a parameter in a UNION (SQLite keeps its 0 or 1).
      const rows = Array.from(
        { length: count },
        (_, i) =>
          sql`SELECT ${answers[3 * i]} AS slot, CAST(${answers[3 * i + 1]} AS BOOLEAN) AS accepted, ${answers[3 * i + 2]} AS code`,
      );
      return this.db
        .insertInto('input_results')
        .columns(['verification_id', 'slot', 'accepted', 'code', 'at'])
        .expression((eb) =>
          eb
            .selectFrom(
              eb
                .selectFrom('verifications')
                .select('id')
                .where('identity', '=', identity)
                .orderBy('created_at', 'desc')
                .limit(sql.lit(1))
                .as('v'),
            )
            .crossJoin(sql<Answer>`(${sql.join(rows, sql` UNION ALL `)})`.as('r'))
            .select(['v.id', 'r.slot', 'r.accepted', 'r.code', sql<Time>`${at}`.as('at')])
            // Without it SQLite would read the upsert's ON as a join's.
            .where(sql<boolean>`true`),
        )
        .onConflict((oc) =>
          oc.columns(['verification_id', 'slot']).doUpdateSet((eb) => ({
            accepted: eb.ref('excluded.accepted'),
            code: eb.ref('excluded.code'),
            at: eb.ref('excluded.at'),
          })),
        );
    });
  }

  async inputResultsOf(verificationId: string): Promise<InputSlotResult[]> {
    const rows = await this.db
      .selectFrom('input_results')
      .select(['slot', 'accepted', 'code', 'at'])
      .where('verification_id', '=', verificationId)
      .orderBy('at')
      .orderBy('slot')
      .execute();
    return rows.map((r) => ({
      slot: r.slot,
      accepted: r.accepted === true || r.accepted === 1,
      code: r.code,
      at: typeof r.at === 'string' ? r.at : r.at.toISOString(),
    }));
  }

  async deleteVerification(id: string, mediaIds: string[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('input_results').where('verification_id', '=', id).execute();
      await trx.deleteFrom('reviews').where('verification_id', '=', id).execute();
      await trx.deleteFrom('events').where('verification_id', '=', id).execute();
      await trx.deleteFrom('session_verifications').where('verification_id', '=', id).execute();
      await trx.deleteFrom('handoff_tokens').where('verification_id', '=', id).execute();
      await trx.deleteFrom('verifications').where('id', '=', id).execute();
      await trx
        .insertInto('erased_verifications')
        .values({ id, erased_at: this.dialect.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (let i = 0; i < mediaIds.length; i += BATCH)
        await trx
          .deleteFrom('media')
          .where('id', 'in', mediaIds.slice(i, i + BATCH))
          .execute();
    });
    this.dialect.afterErase();
  }

  async wasErased(id: string) {
    const row = await this.db
      .selectFrom('erased_verifications')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async listVerifications(filter: VerificationFilter) {
    const rows = await this.db
      .selectFrom('verifications')
      .selectAll()
      .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
      .$if(filter.flowId !== undefined, (q) => q.where('flow_id', '=', filter.flowId!))
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute();
    return rows.map(toSummary);
  }

  async recordReview(r: StoredReview) {
    await this.db
      .insertInto('reviews')
      .values({
        id: r.id,
        verification_id: r.verificationId,
        decision: r.decision,
        reason: r.reason,
        note: r.note,
        reviewer: r.reviewer,
        decided_at: r.decidedAt,
      })
      .execute();
  }

  async deleteReview(id: string) {
    await this.db.deleteFrom('reviews').where('id', '=', id).execute();
  }

  async reviewsOf(verificationId: string) {
    // The insert order breaks ties between decisions of the same millisecond: the later insert is newer.
    const rows = await this.db
      .selectFrom('reviews')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('decided_at', 'desc')
      .orderBy(this.dialect.insertOrder, 'desc')
      .execute();
    return rows.map(toReview);
  }

  async createCreditCheck(record: CreditCheckRecord) {
    // A result that arrived before the service's answer keeps its status, but gains the request.
    const row = await this.db
      .insertInto('credit_checks')
      .values({
        id: record.id,
        country: record.country,
        request: json(record.request)!,
        status: record.status,
        result: json(record.result),
        error: record.error,
        created_at: record.createdAt,
        completed_at: record.completedAt,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          request: eb.ref('excluded.request'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCreditCheck(row);
  }

  async completeCreditCheck(
    id: string,
    v: Pick<CreditCheckRecord, 'country' | 'request' | 'status' | 'result' | 'error' | 'completedAt'>,
  ) {
    const row = await this.db
      .insertInto('credit_checks')
      .values({
        id,
        country: v.country,
        request: json(v.request)!,
        status: v.status,
        result: json(v.result),
        error: v.error,
        created_at: v.completedAt!,
        completed_at: v.completedAt,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          result: eb.ref('excluded.result'),
          error: eb.ref('excluded.error'),
          completed_at: eb.ref('excluded.completed_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCreditCheck(row);
  }

  async listCreditChecks() {
    const rows = await this.db
      .selectFrom('credit_checks')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute();
    return rows.map(toCreditCheck);
  }

  async rememberMedia(entries: { id: string; url: string }[]) {
    // One row per id (the last link wins): an upsert may not touch the same row twice.
    const rows = [...new Map(entries.map((e) => [e.id, e.url]))].map(([id, url]) => ({ id, url }));
    for (let i = 0; i < rows.length; i += BATCH)
      await this.db
        .insertInto('media')
        .values(rows.slice(i, i + BATCH))
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ url: eb.ref('excluded.url') })))
        .execute();
  }

  async mediaUrl(id: string) {
    const row = await this.db.selectFrom('media').select('url').where('id', '=', id).executeTakeFirst();
    return row?.url ?? null;
  }

  async verificationsUnchangedSince(cutoff: Date) {
    const rows = await this.db
      .selectFrom('verifications')
      .select('id')
      .where('updated_at', '<', this.dialect.time(cutoff))
      .execute();
    return rows.map((r) => r.id);
  }

  async deleteOlderThan(cutoff: Date) {
    const d = this.dialect;
    const at = d.time(cutoff);
    const count = await this.db.transaction().execute(async (trx) => {
      const stale = trx.selectFrom('verifications').select('id').where('updated_at', '<', at);
      const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
      await trx.deleteFrom('input_results').where('verification_id', 'in', stale).execute();
      await trx.deleteFrom('reviews').where('verification_id', 'in', stale).execute();
      let n = deleted(
        await trx
          .deleteFrom('session_verifications')
          .where('verification_id', 'in', stale)
          .executeTakeFirst(),
      );
      n += deleted(await trx.deleteFrom('verifications').where('updated_at', '<', at).executeTakeFirst());
      n += deleted(await trx.deleteFrom('events').where('received_at', '<', at).executeTakeFirst());
      n += deleted(await trx.deleteFrom('credit_checks').where('created_at', '<', at).executeTakeFirst());
      // A tombstone outlives every webhook that could name it (their timestamps are checked).
      n += deleted(
        await trx.deleteFrom('erased_verifications').where('erased_at', '<', at).executeTakeFirst(),
      );
      n += deleted(
        await trx.deleteFrom('handoff_tokens').where('expires_at', '<', d.epoch(cutoff)).executeTakeFirst(),
      );
      return n;
    });
    d.afterErase();
    return count;
  }

  async ping() {
    await sql`SELECT 1`.execute(this.db);
  }

  async close() {
    await this.dialect.close();
  }
}
