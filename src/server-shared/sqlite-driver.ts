import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { statementCache } from '@/server-shared/statement-cache';

/**
 * Kysely on one better-sqlite3 connection, without Kysely's SqliteDriver and its mutex: that
 * driver locks the connection around every query, which costs a chain of promises per query on
 * the hot path, although better-sqlite3 runs a statement synchronously and so no other query can
 * come in between. Only a transaction, whose queries are awaited one by one, must keep the others
 * out: a query from outside it waits until it ends (it would otherwise become part of it).
 */
export class SqliteConnectionDriver implements Driver {
  private readonly prepare: (source: string) => Database.Statement;
  /** The open transaction: which connection owns it, and a promise settled when it ends. */
  private open: { owner: Connection; ended: Promise<void>; end: () => void } | null = null;

  constructor(
    private readonly raw: Database.Database,
    private readonly closeRaw: () => void,
  ) {
    // Kysely prepares every query it runs; preparing costs more than running a small query.
    this.prepare = statementCache(raw);
  }

  async init() {}

  /** A handle on the one connection per acquisition, so that a transaction knows its own queries. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Connection(this);
  }

  async beginTransaction(connection: DatabaseConnection) {
    while (this.open) await this.open.ended;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.open = { owner: connection as Connection, ended, end };
    try {
      this.run('begin', []);
    } catch (error) {
      this.endTransaction();
      throw error;
    }
  }

  async commitTransaction() {
    this.run('commit', []);
    this.endTransaction();
  }

  async rollbackTransaction() {
    // A failed commit may have rolled back already.
    if (this.raw.inTransaction) this.run('rollback', []);
    this.endTransaction();
  }

  async releaseConnection(connection: DatabaseConnection) {
    // A transaction that neither committed nor rolled back (its connection given up) ends here.
    if (this.open?.owner === connection) {
      if (this.raw.inTransaction) this.run('rollback', []);
      this.endTransaction();
    }
  }

  async destroy() {
    this.closeRaw();
  }

  /** Runs a query at once unless another's transaction is open; `from` null: no transaction's. */
  execute<R>(query: CompiledQuery, from: Connection | null): Promise<QueryResult<R>> {
    if (this.open && this.open.owner !== from) return this.afterTransaction(query, from);
    return Promise.resolve(this.run<R>(query.sql, query.parameters));
  }

  private async afterTransaction<R>(query: CompiledQuery, from: Connection | null): Promise<QueryResult<R>> {
    while (this.open && this.open.owner !== from) await this.open.ended;
    return this.run<R>(query.sql, query.parameters);
  }

  private endTransaction() {
    const open = this.open;
    this.open = null;
    open?.end();
  }

  private run<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    const statement = this.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }
}

class Connection implements DatabaseConnection {
  constructor(private readonly driver: SqliteConnectionDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(query, this);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on this SQLite driver');
  }
}

/** The dialect of `SqliteConnectionDriver`; the rest is Kysely's SQLite dialect. */
export function sqliteConnectionDialect(driver: SqliteConnectionDriver): Dialect {
  return {
    createDriver: () => driver,
    createQueryCompiler: (): QueryCompiler => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  };
}

/**
 * What `compiledOnce` runs its queries on, for SQLite: straight on the driver, past Kysely's
 * executor (its plugins, its connection provider), with the same wait for an open transaction.
 */
export function directExecutor(driver: SqliteConnectionDriver) {
  return {
    executeQuery: <R>(query: CompiledQuery<R>) => driver.execute<R>(query, null),
  };
}
