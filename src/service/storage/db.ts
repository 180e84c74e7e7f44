import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { zeroWhatIsDeleted } from '@/server-shared/sqlite-erasure';

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
  // A person (identity) may be verified again: a verification's inputs and media belong to the
  // verification, not to the identity; the user agent of the creation is kept for the fingerprint.
  `
  CREATE TABLE verifications_v2 (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
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
    ua TEXT,
    result TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO verifications_v2 (id, identity, flow_id, metadata, status, expired, skip_wait, wait_until,
    expires_at, started_at, inputs_completed_at, completed_at, ip, result, created_at, updated_at)
  SELECT id, identity, flow_id, metadata, status, expired, skip_wait, wait_until, expires_at, started_at,
    inputs_completed_at, completed_at, ip, result, created_at, updated_at FROM verifications;
  DROP TABLE verifications;
  ALTER TABLE verifications_v2 RENAME TO verifications;
  CREATE INDEX verifications_identity ON verifications (identity, created_at);
  CREATE TABLE inputs_v2 (
    verification_id TEXT NOT NULL,
    slot TEXT NOT NULL,
    position INTEGER NOT NULL,
    input_type TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    descriptor TEXT NOT NULL,
    media_id TEXT,
    facts TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (verification_id, slot)
  );
  INSERT INTO inputs_v2 SELECT v.id, i.slot, i.position, i.input_type, i.status, i.error_code, i.descriptor,
    i.media_id, i.facts, i.updated_at FROM inputs i JOIN verifications v ON v.identity = i.identity;
  DROP TABLE inputs;
  ALTER TABLE inputs_v2 RENAME TO inputs;
  ALTER TABLE media ADD COLUMN verification_id TEXT;
  UPDATE media SET verification_id = (SELECT v.id FROM verifications v WHERE v.identity = media.identity);
  CREATE INDEX media_verification ON media (verification_id);
  `,
  // The active liveness challenge the service chose for the verification (JSON; null: none).
  `ALTER TABLE verifications ADD COLUMN challenge TEXT;`,
];

export function openDb(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'service.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  zeroWhatIsDeleted(db);
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}
