import { Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { migratePostgres, migrateSqliteFile } from '@/server-shared/numbered-migrations';
import { flushErasure } from '@/server-shared/sqlite-erasure';
import { openSqliteFile } from '@/server-shared/sqlite-file';
import type { CompiledExecutor } from '@/server-shared/compiled-once';
import { advisoryLocks } from '@/server-shared/advisory-locks';
import { openPgPool } from '@/server-shared/pg-pool';
import { KeyQueue } from '@/server-shared/key-queue';
import type { BffTables, Epoch, Time } from './rows';
import { directExecutor } from '@/server-shared/sqlite-driver';
import { initial } from './migrations/001-initial';
import { handoffTokens } from './migrations/002-handoff-tokens';
import { inputResults } from './migrations/003-input-results';
import { handoffCarry } from './migrations/004-handoff-carry';
import { reviews } from './migrations/005-reviews';
import { erasedVerifications } from './migrations/006-erased-verifications';
import { slotKeys } from './migrations/007-slot-keys';
import { unversionedBaseline } from './migrations/unversioned-baseline';

/** The numbered migrations (`migrations/NNN-name.ts`), in order, recorded in `bff_migrations`. */
export const migrations = [
  initial,
  handoffTokens,
  inputResults,
  handoffCarry,
  reviews,
  erasedVerifications,
  slotKeys,
];

/**
 * What differs between SQLite and PostgreSQL under the one store (`sql-store.ts`): how times,
 * booleans and JSON are stored, whose clock is "now", the tie-break of equal times, the lock of
 * `exclusive`, and what an erasure does after its transaction.
 */
export interface StoreDialect {
  readonly name: 'sqlite' | 'postgres';
  readonly db: Kysely<BffTables>;
  /** Where `compiledOnce` queries run: the Kysely itself, or on SQLite straight on the driver. */
  readonly hot: CompiledExecutor;
  /** A time for a `Time` column: TIMESTAMPTZ or ISO text. */
  time(date: Date): Time;
  /** A time for an `Epoch` column: TIMESTAMPTZ or epoch milliseconds. */
  epoch(date: Date): Epoch;
  bool(value: boolean): boolean | number;
  /** Now, for a `Time` column (PostgreSQL: the database's clock, shared by every instance). */
  now(): RawBuilder<Time>;
  /** Now plus `ms`, for an `Epoch` column. */
  nowEpoch(ms?: number): RawBuilder<Epoch>;
  /** A row's insert order, to break ties between equal times (rowid, or the `seq` column). */
  readonly insertOrder: RawBuilder<number>;
  /** verifications.data equals the JSON text (PostgreSQL compares JSONB by value). */
  sameData(json: string | null): RawBuilder<boolean>;
  /** In an upsert's RETURNING: true for a row the statement inserted; null where there is no such thing. */
  readonly inserted: RawBuilder<boolean> | null;
  /** A JSON column as read: parsed already (JSONB) or text. */
  readJson(value: unknown): unknown;
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** After an erasure's transaction. */
  afterErase(): void;
  close(): Promise<void>;
  /** The pool and URL the staff event bus listens on (PostgreSQL only). */
  readonly postgres?: { pool: pg.Pool; connectionString: string };
}

/** One SQLite file (WAL), owned by one process. */
export function sqliteDialect(file: string): StoreDialect {
  const { raw, driver, db } = openSqliteFile<BffTables>(file, (raw) =>
    migrateSqliteFile(raw, migrations, { table: 'bff_migrations', baseline: unversionedBaseline }),
  );
  const queue = new KeyQueue();
  return {
    name: 'sqlite',
    db,
    hot: directExecutor(driver),
    time: (date) => date.toISOString(),
    epoch: (date) => date.getTime(),
    bool: (value) => (value ? 1 : 0),
    now: () => sql<Time>`${new Date().toISOString()}`,
    nowEpoch: (ms = 0) => sql<Epoch>`${Date.now() + ms}`,
    insertOrder: sql<number>`rowid`,
    sameData: (json) => sql<boolean>`data IS ${json}`,
    inserted: null,
    readJson: (value) => (typeof value === 'string' ? JSON.parse(value) : value),
    // One process owns the file, so a chain of promises per key is lock enough.
    exclusive: (key, fn) => queue.run(key, fn),
    afterErase: () => flushErasure(raw),
    close: () => db.destroy(),
  };
}

/** Key of the advisory lock that lets one starting instance migrate while the others wait. */
const MIGRATION_LOCK = 'idv-bff-migrations';

/** PostgreSQL (DATABASE_URL), shared by any number of instances; migrates at open. */
export async function postgresDialect(
  connectionString: string,
  options: { max?: number } = {},
): Promise<StoreDialect> {
  const pool = openPgPool(connectionString, { max: options.max ?? 10 });
  await migratePostgres(pool, migrations, { table: 'bff_migrations', lockKey: MIGRATION_LOCK });
  const locks = advisoryLocks(connectionString, { connections: 4 });
  const db = new Kysely<BffTables>({ dialect: new PostgresDialect({ pool }) });
  return {
    name: 'postgres',
    db,
    hot: db,
    time: (date) => date,
    epoch: (date) => date,
    bool: (value) => value,
    now: () => sql<Time>`now()`,
    nowEpoch: (ms = 0) => (ms ? sql<Epoch>`now() + ${ms} * interval '1 millisecond'` : sql<Epoch>`now()`),
    insertOrder: sql<number>`seq`,
    sameData: (json) => sql<boolean>`data IS NOT DISTINCT FROM ${json}::jsonb`,
    // xmax = 0 only for a row this statement inserted.
    inserted: sql<boolean>`(xmax = 0)`,
    readJson: (value) => value,
    exclusive: (key, fn) => locks.run(key, fn),
    afterErase: () => undefined,
    close: async () => {
      await Promise.all([db.destroy(), locks.close()]);
    },
    postgres: { pool, connectionString },
  };
}
