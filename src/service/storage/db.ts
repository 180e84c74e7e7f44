import path from 'node:path';
import { Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely';
import { advisoryLocks } from '@/server-shared/advisory-locks';
import { KeyQueue } from '@/server-shared/key-queue';
import { migratePostgres, migrateSqliteFile } from '@/server-shared/numbered-migrations';
import { openPgPool } from '@/server-shared/pg-pool';
import { flushErasure } from '@/server-shared/sqlite-erasure';
import { openSqliteFile } from '@/server-shared/sqlite-file';
import { directExecutor } from '@/server-shared/sqlite-driver';
import type { CompiledExecutor } from '@/server-shared/compiled-once';
import { initial } from './migrations/001-initial';
import { jobs } from './migrations/002-jobs';
import { mediaChunks } from './migrations/003-media-chunks';
import { jobsLocked } from './migrations/004-jobs-locked';
import { userVersionBaseline } from './migrations/user-version-baseline';
import type { ServiceTables } from './rows';
import { tablePrefix } from './table-prefix';

/** The numbered migrations (`migrations/NNN-name.ts`), in order. */
export const migrations = [initial, jobs, mediaChunks, jobsLocked];

/**
 * The service's database, written once for both dialects: what differs between SQLite
 * (`DATA_DIR/service.sqlite`, the default) and PostgreSQL (`DATABASE_URL`).
 */
export interface ServiceDb {
  readonly name: 'sqlite' | 'postgres';
  readonly db: Kysely<ServiceTables>;
  /** Where compiled hot queries outside a transaction run: on SQLite straight on the driver. */
  readonly hot: CompiledExecutor;
  /** A verification's insert order, to break ties between equal creation times (rowid, or `seq`). */
  readonly insertOrder: RawBuilder<number>;
  /** Resolves once the database is ready for queries (PostgreSQL: migrated). */
  ready(): Promise<void>;
  /** After an erasure's transaction: nothing of the erased rows left in the files. */
  afterErase(): void;
  /**
   * Runs fn with no other fn of the same key running meanwhile: within the process on SQLite (one
   * process owns the file), across every instance on PostgreSQL (an advisory lock).
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** fn under the same lock if no one holds it now (true), else nothing (false). */
  tryExclusive(key: string, fn: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
}

/** `DATA_DIR/service.sqlite`, migrated at open (a file of an older release too). */
export function openSqlite(dataDir: string): ServiceDb {
  const queue = new KeyQueue();
  const { raw, driver, db } = openSqliteFile<ServiceTables>(path.join(dataDir, 'service.sqlite'), (file) =>
    migrateSqliteFile(file, migrations, { table: 'schema_migrations', baseline: userVersionBaseline }),
  );
  return {
    name: 'sqlite',
    db,
    hot: directExecutor(driver),
    insertOrder: sql<number>`rowid`,
    ready: async () => undefined,
    afterErase: () => flushErasure(raw),
    exclusive: (key, fn) => queue.run(key, fn),
    // Callers already run one fn per key at a time within the process.
    tryExclusive: async (_key, fn) => {
      await fn();
      return true;
    },
    close: () => db.destroy(),
  };
}

/** The tables of `ServiceTables`, named `service_*` on PostgreSQL (see `migrations/001-initial.ts`). */
const TABLES = ['verifications', 'inputs', 'media', 'outbox', 'credit_checks', 'media_chunks'];

/**
 * PostgreSQL (DATABASE_URL), shared by any number of instances (and by the BFF, if you like: the
 * service's tables are `service_*`). Migrated under an advisory lock before the first query.
 */
export function openPostgres(
  connectionString: string,
  options: { max?: number; lockConnections?: number } = {},
): ServiceDb {
  const pool = openPgPool(connectionString, { max: options.max ?? 10, bigintAsNumber: true });
  const db = new Kysely<ServiceTables>({
    dialect: new PostgresDialect({ pool }),
    plugins: [tablePrefix('service_', TABLES)],
  });
  // A lock is held on a connection of its own for a whole send-input (checks included): so many
  // identities' send-inputs are under way at once per instance, the next wait for a connection.
  const locks = advisoryLocks(connectionString, { connections: options.lockConnections ?? 8 });
  let migrated: Promise<void> | null = null;
  return {
    name: 'postgres',
    db,
    hot: db,
    insertOrder: sql<number>`seq`,
    ready: () =>
      (migrated ??= migratePostgres(pool, migrations, {
        table: 'service_schema_migrations',
        lockKey: 'idv-service-migrations',
      }).catch((error: unknown) => {
        migrated = null;
        throw error;
      })),
    afterErase: () => undefined,
    exclusive: (key, fn) => locks.run(`idv-service:${key}`, fn),
    tryExclusive: (key, fn) => locks.tryRun(`idv-service:${key}`, fn),
    close: async () => {
      await Promise.all([db.destroy(), locks.close()]);
    },
  };
}

/** The database the settings name: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR. */
export const openServiceDb = (config: { dataDir: string; databaseUrl?: string | null }) =>
  config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(config.dataDir);
