import type { Kysely } from 'kysely';
import type { StoreDialect } from './dialects';
import type { BffTables } from './rows';

/** JSON text for a JSON column (pg would send a JS array as a PostgreSQL array, not as JSON). */
export const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** Rows per multi-row statement, well under both databases' limits on parameters. */
export const BATCH = 500;

/**
 * The store's tables by group, each group a class over the one before (the chain only splits the
 * store by reason to change; `SqlStore` is the whole): this one holds the database and its dialect.
 */
export abstract class SqlTables {
  protected readonly db: Kysely<BffTables>;

  constructor(protected readonly dialect: StoreDialect) {
    this.db = dialect.db;
  }
}
