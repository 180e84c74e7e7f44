import type Database from 'better-sqlite3';
import type pg from 'pg';
import { migrate } from './pg-migrate';

/**
 * One numbered migration file: the same change written for each dialect (their types differ:
 * SQLite's rowid where PostgreSQL has a serial column, say). Versions are 1, 2, 3… in the order of
 * the files; a file that has shipped is never edited, a change is a new file.
 */
export interface NumberedMigration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

function inOrder(migrations: readonly NumberedMigration[]) {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name}: version ${m.version}, expected ${i + 1}`);
  });
  return migrations;
}

/**
 * Applies the migrations a SQLite file lacks, each in its own transaction, recording them in
 * `table`. `baseline`: for a file made before it had that table, the version its schema already
 * is at (those migrations are recorded, not run).
 */
export function migrateSqliteFile(
  raw: Database.Database,
  migrations: readonly NumberedMigration[],
  options: { table: string; baseline?: (raw: Database.Database) => number },
) {
  const { table } = options;
  inOrder(migrations);
  const record = (m: NumberedMigration) =>
    raw
      .prepare(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`)
      .run(m.version, m.name, Date.now());
  const exists = raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  // The table and the baseline in one transaction: a file never has the one without the other.
  raw.transaction(() => {
    if (exists) return;
    raw.exec(
      `CREATE TABLE ${table} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
    );
    const at = options.baseline?.(raw) ?? 0;
    for (const m of migrations.slice(0, at)) record(m);
  })();
  const { version } = raw.prepare(`SELECT coalesce(max(version), 0) AS version FROM ${table}`).get() as {
    version: number;
  };
  for (const m of migrations.slice(version)) {
    raw.transaction(() => {
      raw.exec(m.sqlite);
      record(m);
    })();
  }
}

/**
 * Applies the migrations PostgreSQL lacks under an advisory lock (`pg-migrate.ts`): instances
 * starting together take turns, the later ones find nothing left to do.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly NumberedMigration[],
  options: { table: string; lockKey: string },
) {
  inOrder(migrations);
  const client = await pool.connect();
  try {
    await migrate(
      client,
      migrations.map((m) => m.postgres),
      options.table,
      options.lockKey,
    );
  } finally {
    client.release();
  }
}
