import { Kysely, PostgresDialect, SqliteDialect, type Generated } from 'kysely';
import pg from 'pg';
import { migrate } from '@/server-shared/pg-migrate';
import { statementCache } from '@/server-shared/statement-cache';
import type { Db } from './db';

export interface OutboxRow {
  id: number;
  url: string;
  body: string;
  attempts: number;
  next_at: number;
}

export interface FailedRow {
  id: number;
  url: string;
  event_name: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  failed_at: number;
}

/** What happened to one delivery attempt. */
export type Outcome =
  | { kind: 'delivered'; at: number; attempts: number }
  | { kind: 'failed'; at: number; attempts: number; error: string }
  | { kind: 'retry'; nextAt: number; attempts: number; error: string };

/** A LIKE pattern of a resource path inside a JSON body; the path is made of service ids (no wildcards). */
export const bodyNaming = (resourcePath: string) => `%${resourcePath}"%`;

/** Times are epoch milliseconds; PostgreSQL's BIGINT (ids too) comes back as a string. */
type Big = number | string;
interface OutboxTable {
  id: Generated<Big>;
  url: string;
  event_name: string;
  body: string;
  attempts: Generated<number>;
  next_at: Big;
  delivered_at: Big | null;
  failed_at: Big | null;
  last_error: string | null;
  created_at: Big;
}
/** The same table: `outbox` in the service's SQLite file, `service_outbox` on PostgreSQL. */
interface OutboxTables {
  outbox: OutboxTable;
  service_outbox: OutboxTable;
}
type TableName = keyof OutboxTables;

/** The service's PostgreSQL schema, as ordered migrations (index + 1 = version in service_migrations). */
const pgMigrations = [
  `
  CREATE TABLE service_outbox (
    id BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    delivered_at BIGINT,
    failed_at BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX service_outbox_pending ON service_outbox (url, id) WHERE delivered_at IS NULL AND failed_at IS NULL;
  `,
];

/**
 * Kysely on the service's own SQLite connection, which it does not close. Its queries are never
 * grouped in a Kysely transaction: the service's synchronous transactions run on the same
 * connection.
 */
function onServiceDb(db: Db) {
  const prepare = statementCache(db);
  return new Kysely<OutboxTables>({
    dialect: new SqliteDialect({ database: { prepare, close: () => undefined } }),
  });
}

/** Rows (or ids) per statement: moved from SQLite to PostgreSQL, or redelivered. */
const MOVE_BATCH = 500;

/**
 * Where pending webhook deliveries are kept, written once for both dialects: the SQLite `outbox`
 * table itself (the default, where `Outbox.enqueue` writes every event in the transaction of the
 * change that caused it), or PostgreSQL's `service_outbox` (DATABASE_URL). With PostgreSQL the
 * service's state stays in SQLite, and an event still waits in SQLite's table, so that none is ever
 * lost between a change and its webhook; from there it is moved to PostgreSQL (then deleted from
 * SQLite) before every delivery round, and delivered from PostgreSQL. A crash between the move and
 * the delete delivers that event twice, which webhook receivers must bear anyway (a redelivery has
 * the same body).
 */
export class DeliveryQueue {
  private ready: Promise<void> | null = null;
  private moving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Kysely<OutboxTables>,
    private readonly table: TableName,
    /** PostgreSQL: SQLite's table, where events wait to be moved; its Kysely. */
    private readonly staging: Kysely<OutboxTables> | null,
    private readonly migrateOnce: () => Promise<void>,
  ) {}

  /** The `outbox` table of the service's SQLite file. */
  static sqlite(db: Db) {
    return new DeliveryQueue(onServiceDb(db), 'outbox', null, async () => undefined);
  }

  /** PostgreSQL's `service_outbox`, fed from the SQLite file's `outbox`. */
  static postgres(db: Db, connectionString: string) {
    const pool = new pg.Pool({ connectionString, max: 4 });
    // An idle client whose server went away emits 'error'; the pool replaces it on the next query.
    pool.on('error', () => undefined);
    const migrateOn = async () => {
      const client = await pool.connect();
      try {
        await migrate(client, pgMigrations, 'service_migrations', 'idv-service-migrations');
      } finally {
        client.release();
      }
    };
    const kysely = new Kysely<OutboxTables>({ dialect: new PostgresDialect({ pool }) });
    return new DeliveryQueue(kysely, 'service_outbox', onServiceDb(db), migrateOn);
  }

  private migrated() {
    this.ready ??= this.migrateOnce().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private pending() {
    return this.db.selectFrom(this.table).where('delivered_at', 'is', null).where('failed_at', 'is', null);
  }

  /** Moves the events waiting in SQLite to PostgreSQL, oldest first; one move at a time. */
  private moveStaged() {
    const staging = this.staging;
    if (!staging) return Promise.resolve();
    const run = async () => {
      await this.migrated();
      for (;;) {
        const rows = await staging
          .selectFrom('outbox')
          .select(['id', 'url', 'event_name', 'body', 'attempts', 'next_at', 'created_at'])
          .where('delivered_at', 'is', null)
          .where('failed_at', 'is', null)
          .orderBy('id')
          .limit(MOVE_BATCH)
          .execute();
        if (!rows.length) return;
        // Ids are given in the order of the rows, so the receivers' order holds.
        await this.db
          .insertInto(this.table)
          .values(rows.map(({ id: _, ...row }) => row))
          .execute();
        await staging
          .deleteFrom('outbox')
          .where('id', '<=', rows.at(-1)!.id)
          .where('delivered_at', 'is', null)
          .where('failed_at', 'is', null)
          .execute();
      }
    };
    const next = this.moving.then(run, run);
    this.moving = next.catch(() => undefined);
    return next;
  }

  /** Receiver URLs with deliveries pending. */
  async pendingUrls() {
    await this.moveStaged();
    const rows = await this.pending().select('url').distinct().execute();
    return rows.map((r) => r.url);
  }

  /** The oldest pending delivery to `url`. */
  async next(url: string): Promise<OutboxRow | undefined> {
    await this.migrated();
    const row = await this.pending()
      .select(['id', 'url', 'body', 'attempts', 'next_at'])
      .where('url', '=', url)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row && { ...row, id: Number(row.id), next_at: Number(row.next_at) };
  }

  async settle(id: number, outcome: Outcome) {
    const update = this.db.updateTable(this.table).where('id', '=', id);
    if (outcome.kind === 'delivered') {
      await update.set({ delivered_at: outcome.at, attempts: outcome.attempts, last_error: null }).execute();
    } else if (outcome.kind === 'failed') {
      await update
        .set({ failed_at: outcome.at, attempts: outcome.attempts, last_error: outcome.error })
        .execute();
    } else {
      await update
        .set({ next_at: outcome.nextAt, attempts: outcome.attempts, last_error: outcome.error })
        .execute();
    }
  }

  /**
   * Erasure, after `Outbox.dropAllFor` deleted the events still in SQLite inside the erasing
   * transaction: the ones already moved to PostgreSQL (none on SQLite alone).
   */
  async dropAllFor(resourcePath: string) {
    if (!this.staging) return;
    await this.migrated();
    // The erasure's own verification_deleted may have moved here before this runs: it stays.
    await this.db
      .deleteFrom(this.table)
      .where('body', 'like', bodyNaming(resourcePath))
      .where('event_name', '<>', 'verification_deleted')
      .execute();
  }

  /** Deliveries given up on, newest first. */
  async failed(limit: number): Promise<FailedRow[]> {
    await this.migrated();
    const rows = await this.db
      .selectFrom(this.table)
      .select(['id', 'url', 'event_name', 'attempts', 'last_error', 'created_at', 'failed_at'])
      .where('failed_at', 'is not', null)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      created_at: Number(r.created_at),
      failed_at: Number(r.failed_at),
    }));
  }

  /** Puts failed deliveries (the ids, or all) back in their queues with a fresh schedule; how many. */
  async redeliver(ids: number[] | undefined, now: number) {
    await this.migrated();
    const reset = (some?: number[]) =>
      this.db
        .updateTable(this.table)
        .set({ failed_at: null, attempts: 0, next_at: now, last_error: null })
        .where('failed_at', 'is not', null)
        .$if(some !== undefined, (q) => q.where('id', 'in', some!))
        .executeTakeFirst()
        .then((result) => Number(result.numUpdatedRows));
    if (!ids) return reset();
    let count = 0;
    // Within both databases' limits on parameters.
    for (let i = 0; i < ids.length; i += MOVE_BATCH) count += await reset(ids.slice(i, i + MOVE_BATCH));
    return count;
  }

  async close() {
    await this.moving;
    // On SQLite alone this leaves the service's connection open (its own to close).
    await this.db.destroy();
  }
}
