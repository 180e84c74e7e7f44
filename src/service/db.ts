import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** Ordered schema migrations; the index + 1 is the schema version (PRAGMA user_version). */
const migrations: string[] = [
  `
  CREATE TABLE verifications (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL UNIQUE,
    flow_id TEXT NOT NULL,
    metadata TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    expired INTEGER NOT NULL DEFAULT 0,
    skip_wait INTEGER NOT NULL DEFAULT 0,
    wait_until INTEGER,
    expires_at INTEGER,
    started_at INTEGER,
    inputs_completed_at INTEGER,
    completed_at INTEGER,
    ip TEXT,
    result TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE inputs (
    identity TEXT NOT NULL,
    slot TEXT NOT NULL,
    position INTEGER NOT NULL,
    input_type TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    descriptor TEXT NOT NULL,
    media_id TEXT,
    facts TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (identity, slot)
  );
  CREATE TABLE media (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    delivered_at INTEGER,
    failed_at INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX outbox_pending ON outbox (next_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
  CREATE TABLE credit_checks (
    id TEXT PRIMARY KEY,
    country TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    created_at INTEGER NOT NULL
  );
  `,
];

export function openDb(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'service.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}
