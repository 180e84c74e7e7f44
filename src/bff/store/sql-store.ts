import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { compiledOnce } from '@/server-shared/compiled-once';
import { postgresDialect, sqliteDialect, type StoreDialect } from './dialects';
import { RecordTables } from './record-tables';
import { BATCH, json } from './sql-tables';
import { toSummary, type BffTables, type Time } from './rows';
import type {
  BffStore,
  InputSlotResult,
  StoredVerification,
  VerificationDataUpdate,
  VerificationFilter,
} from './store';

/**
 * Everything the BFF keeps, written once over Kysely: on SQLite (`SqlStore.inDataDir`, one
 * instance, the default) or on PostgreSQL (`SqlStore.postgres`, DATABASE_URL, any number of
 * instances). What differs between the two is in `dialects.ts`. This class holds the
 * verifications (their sessions, data and input results), their erasure and the retention sweep;
 * the other tables are in the classes below it (`record-tables.ts`, `event-tables.ts`,
 * `access-tables.ts`).
 */
export class SqlStore extends RecordTables implements BffStore {
  // The send-input path's queries and the status polls', compiled once (see `compiled-once.ts`).
  private readonly ownsIdentity;
  private readonly ownsVerification;
  private readonly verificationById;
  /** recordInputResults' statement, by its number of slots. */
  private readonly inputUpserts = new Map<number, (...values: unknown[]) => Promise<unknown[]>>();

  private constructor(dialect: StoreDialect) {
    super(dialect);
    const db = dialect.db;
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
