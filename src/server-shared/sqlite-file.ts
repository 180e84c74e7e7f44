import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { zeroWhatIsDeleted } from './sqlite-erasure';
import { SqliteConnectionDriver, sqliteConnectionDialect } from './sqlite-driver';

/**
 * One SQLite file owned by one process, as both servers open theirs: WAL, erased rows zeroed,
 * migrated, then Kysely on its one connection (`sqlite-driver.ts`).
 */
export function openSqliteFile<Tables>(file: string, migrate: (raw: Database.Database) => void) {
  mkdirSync(path.dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  zeroWhatIsDeleted(raw);
  migrate(raw);
  const driver = new SqliteConnectionDriver(raw, () => raw.close());
  const db = new Kysely<Tables>({ dialect: sqliteConnectionDialect(driver) });
  return { raw, driver, db };
}
