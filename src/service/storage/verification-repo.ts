import type { Kysely, Transaction } from 'kysely';
import { compiledTemplate, type CompiledExecutor } from '@/server-shared/compiled-once';
import type { FileFormat } from '@/shared/file-format';
import { bodyNaming } from './delivery-queue';
import type { CreditCheckTable, InputRow, ServiceTables, VerificationChange, VerificationRow } from './rows';
import type { ServiceDb } from './db';

const DAY_MS = 24 * 60 * 60 * 1000;

type NewVerification = Pick<
  VerificationRow,
  'id' | 'identity' | 'flow_id' | 'metadata' | 'expires_at' | 'ip' | 'ua' | 'challenge' | 'created_at'
>;

/**
 * The send-input path's statements, built and compiled once per database (see `compiled-once.ts`):
 * building and compiling a Kysely query costs more than running it on SQLite.
 */
function hotQueries(dialect: ServiceDb) {
  const db = dialect.db;
  return {
    byIdentity: compiledTemplate<VerificationRow, [string]>(1, (identity) =>
      db
        .selectFrom('verifications')
        .selectAll()
        .where('identity', '=', identity)
        .orderBy('created_at', 'desc')
        .orderBy(dialect.insertOrder, 'desc')
        .limit(1),
    ),
    get: compiledTemplate<VerificationRow, [string]>(1, (id) =>
      db.selectFrom('verifications').selectAll().where('id', '=', id),
    ),
    inputs: compiledTemplate<InputRow, [string]>(1, (verificationId) =>
      db.selectFrom('inputs').selectAll().where('verification_id', '=', verificationId).orderBy('position'),
    ),
    inputMediaId: compiledTemplate<{ media_id: string | null }, [string, string]>(2, (verificationId, slot) =>
      db
        .selectFrom('inputs')
        .select('media_id')
        .where('verification_id', '=', verificationId)
        .where('slot', '=', slot),
    ),
    setIp: compiledTemplate<never, [string, string]>(2, (id, ip) =>
      db.updateTable('verifications').set({ ip }).where('id', '=', id),
    ),
    upsertInput: compiledTemplate<never, InputValues>(INPUT_COLUMNS.length, (...values: never[]) => {
      const row = Object.fromEntries(INPUT_COLUMNS.map((c, i) => [c, values[i]])) as unknown as InputRow;
      const { verification_id: _v, slot: _s, ...changes } = row;
      return db
        .insertInto('inputs')
        .values(row)
        .onConflict((oc) => oc.columns(['verification_id', 'slot']).doUpdateSet(changes));
    }),
    enqueueEvent: compiledTemplate<never, [string, string, string, number]>(4, (url, eventName, body, now) =>
      db.insertInto('outbox').values({ url, event_name: eventName, body, next_at: now, created_at: now }),
    ),
  };
}

const INPUT_COLUMNS = [
  'verification_id',
  'slot',
  'position',
  'input_type',
  'status',
  'error_code',
  'descriptor',
  'media_id',
  'facts',
  'updated_at',
] as const satisfies readonly (keyof InputRow)[];
type InputValues = InputRow[keyof InputRow][];

const hotOf = new WeakMap<ServiceDb, ReturnType<typeof hotQueries>>();

/**
 * Every read and write of the service's tables, on either dialect. Writes that belong together
 * run in `transaction`, whose repo is bound to it, so that a change and its webhook event (the
 * outbox) commit together.
 */
export class VerificationRepo {
  private readonly hot: ReturnType<typeof hotQueries>;
  /** Where the hot queries run: the transaction's connection, or the database's shortcut. */
  private readonly exec: CompiledExecutor;

  constructor(
    private readonly dialect: ServiceDb,
    private readonly db: Kysely<ServiceTables> = dialect.db,
  ) {
    let hot = hotOf.get(dialect);
    if (!hot) hotOf.set(dialect, (hot = hotQueries(dialect)));
    this.hot = hot;
    this.exec = db === dialect.db ? dialect.hot : db;
  }

  /** Runs fn with a repo whose every statement is part of one transaction. */
  transaction<T>(fn: (tx: VerificationRepo) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx: Transaction<ServiceTables>) => fn(new VerificationRepo(this.dialect, trx)));
  }

  /**
   * `forUpdate`, in a transaction: on PostgreSQL the row stays locked until it ends, and a
   * transaction that locked it first is waited for and its change read (SQLite's one writer at a
   * time needs nothing).
   */
  async get(id: string, options: { forUpdate?: boolean } = {}): Promise<VerificationRow | undefined> {
    if (!options.forUpdate || this.dialect.name !== 'postgres') return (await this.hot.get(this.exec, id))[0];
    return this.db
      .selectFrom('verifications')
      .selectAll()
      .where('id', '=', id)
      .$if(!!options.forUpdate && this.dialect.name === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** The identity's newest verification: send-input by identity goes there (a re-verification is newer). */
  async byIdentity(identity: string): Promise<VerificationRow | undefined> {
    return (await this.hot.byIdentity(this.exec, identity))[0];
  }

  async inputs(verificationId: string): Promise<InputRow[]> {
    return this.hot.inputs(this.exec, verificationId);
  }

  async insert(v: NewVerification) {
    await this.db
      .insertInto('verifications')
      .values({ ...v, status: 'pending', updated_at: v.created_at })
      .execute();
  }

  /** A change of the verification's own fields, which moves its `updated_at` (retention counts from it). */
  async update(id: string, fields: VerificationChange) {
    await this.db
      .updateTable('verifications')
      .set({ ...fields, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  /** The address send-input came from; not a change of the verification's state. */
  async setIp(id: string, ip: string) {
    await this.hot.setIp(this.exec, id, ip);
  }

  /** Pending or running and not expired: what a start resumes. */
  async unfinished(): Promise<VerificationRow[]> {
    return this.db
      .selectFrom('verifications')
      .selectAll()
      .where('status', 'in', ['pending', 'running'])
      .where('expired', '=', 0)
      .execute();
  }

  /** Untouched for `retentionDays` (an expired one for `expiredDays`); 0 days: never. */
  async dueForErasure(retentionDays: number, expiredDays: number, now: number): Promise<VerificationRow[]> {
    if (retentionDays <= 0 && expiredDays <= 0) return [];
    return this.db
      .selectFrom('verifications')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(retentionDays > 0 ? [eb('updated_at', '<', now - retentionDays * DAY_MS)] : []),
          ...(expiredDays > 0
            ? [eb.and([eb('expired', '=', 1), eb('updated_at', '<', now - expiredDays * DAY_MS)])]
            : []),
        ]),
      )
      .execute();
  }

  /** The rows of a verification, its inputs and its media records, and media kept as chunks (not files). */
  async delete(id: string) {
    await this.db
      .deleteFrom('media_chunks')
      .where('media_id', 'in', (eb) => eb.selectFrom('media').select('id').where('verification_id', '=', id))
      .execute();
    await this.db.deleteFrom('inputs').where('verification_id', '=', id).execute();
    await this.db.deleteFrom('media').where('verification_id', '=', id).execute();
    await this.db.deleteFrom('verifications').where('id', '=', id).execute();
  }

  /** The media file stored for an input slot, if any (replaced by a retake). */
  async inputMediaId(verificationId: string, slot: string) {
    const [row] = await this.hot.inputMediaId(this.exec, verificationId, slot);
    return row?.media_id ?? null;
  }

  async upsertInput(row: InputRow) {
    await this.hot.upsertInput(this.exec, ...INPUT_COLUMNS.map((c) => row[c]));
  }

  async setInputFacts(verificationId: string, slot: string, facts: string) {
    await this.db
      .updateTable('inputs')
      .set({ facts })
      .where('verification_id', '=', verificationId)
      .where('slot', '=', slot)
      .execute();
  }

  async mediaIdsOf(verificationId: string) {
    const rows = await this.db
      .selectFrom('media')
      .select('id')
      .where('verification_id', '=', verificationId)
      .execute();
    return rows.map((m) => m.id);
  }

  async media(id: string): Promise<{ format: FileFormat; size: number } | undefined> {
    return this.db.selectFrom('media').select(['format', 'size']).where('id', '=', id).executeTakeFirst();
  }

  async hasMedia(id: string) {
    return (
      (await this.db.selectFrom('media').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    );
  }

  async insertMedia(m: {
    id: string;
    identity: string;
    verificationId: string;
    format: FileFormat;
    size: number;
    createdAt: number;
  }) {
    await this.db
      .insertInto('media')
      .values({
        id: m.id,
        identity: m.identity,
        verification_id: m.verificationId,
        format: m.format,
        size: m.size,
        created_at: m.createdAt,
      })
      .execute();
  }

  async deleteMedia(id: string) {
    await this.db.deleteFrom('media_chunks').where('media_id', '=', id).execute();
    await this.db.deleteFrom('media').where('id', '=', id).execute();
  }

  async insertCreditCheck(row: CreditCheckTable) {
    await this.db.insertInto('credit_checks').values(row).execute();
  }

  /** A credit check; `forUpdate` as in `get`. */
  async creditCheck(id: string, options: { forUpdate?: boolean } = {}) {
    return this.db
      .selectFrom('credit_checks')
      .selectAll()
      .where('id', '=', id)
      .$if(!!options.forUpdate && this.dialect.name === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async completeCreditCheck(id: string, result: string) {
    await this.db
      .updateTable('credit_checks')
      .set({ status: 'completed', result })
      .where('id', '=', id)
      .execute();
  }

  /** The ids of the credit checks whose result is not computed yet. */
  async pendingCreditChecks() {
    const rows = await this.db
      .selectFrom('credit_checks')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    return rows.map((r) => r.id);
  }

  /** A webhook event, written in the transaction of the change that caused it (`Outbox` delivers it). */
  async enqueueEvent(url: string, eventName: string, payload: unknown) {
    await this.hot.enqueueEvent(this.exec, url, eventName, JSON.stringify(payload), Date.now());
  }

  /**
   * Erasure: every event about one resource goes, delivered or not (its body carries the
   * verification's metadata, and a receiver could only fetch a verification that is gone). The
   * path is made of service ids (no LIKE wildcards).
   */
  async dropEventsFor(resourcePath: string) {
    await this.db.deleteFrom('outbox').where('body', 'like', bodyNaming(resourcePath)).execute();
  }

  /** Retention: credit checks, and events delivered or given up on, made before `cutoff`. */
  async sweepBefore(cutoff: number) {
    const creditChecks = await this.db
      .deleteFrom('credit_checks')
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    // Delivered or abandoned events only: one still being delivered finishes first.
    const events = await this.db
      .deleteFrom('outbox')
      .where('created_at', '<', cutoff)
      .where((eb) => eb.or([eb('delivered_at', 'is not', null), eb('failed_at', 'is not', null)]))
      .executeTakeFirst();
    return { creditChecks: Number(creditChecks.numDeletedRows), events: Number(events.numDeletedRows) };
  }
}
