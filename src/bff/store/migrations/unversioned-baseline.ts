import type Database from 'better-sqlite3';

/**
 * Files made before the numbered migrations had no version: the BFF ran this script at every
 * open (IF NOT EXISTS), adding a column when missing. It is kept here as it shipped: such a file
 * (it has a `verifications` table but no `bff_migrations`) is brought to the last state that script
 * made, which is the schema of migrations 1 to 6, and then counts as migrated to 6.
 */
const unversionedSchema = `
CREATE TABLE IF NOT EXISTS session_verifications (
  session_id TEXT NOT NULL,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, verification_id)
);
CREATE INDEX IF NOT EXISTS session_identity ON session_verifications (session_id, identity);
CREATE TABLE IF NOT EXISTS verifications (
  id TEXT PRIMARY KEY,
  identity TEXT,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_event TEXT,
  data TEXT
);
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  event_name TEXT NOT NULL,
  body_hash TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  verification_id TEXT,
  credit_check_id TEXT,
  received_at TEXT NOT NULL,
  processed_at TEXT
);
CREATE INDEX IF NOT EXISTS events_verification ON events (verification_id, received_at);
CREATE TABLE IF NOT EXISTS credit_checks (
  id TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE TABLE IF NOT EXISTS staff_sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS media (id TEXT PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS login_attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS handoff_tokens (
  token_hash TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  carry TEXT
);
CREATE INDEX IF NOT EXISTS handoff_tokens_verification ON handoff_tokens (verification_id, created_at);
CREATE TABLE IF NOT EXISTS input_results (
  verification_id TEXT NOT NULL,
  slot TEXT NOT NULL,
  accepted INTEGER NOT NULL,
  code TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (verification_id, slot)
);
CREATE INDEX IF NOT EXISTS verifications_identity ON verifications (identity, created_at);
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  decision TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT,
  reviewer TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_verification ON reviews (verification_id, decided_at);
CREATE TABLE IF NOT EXISTS erased_verifications (id TEXT PRIMARY KEY, erased_at TEXT NOT NULL);
`;

/** The numbered version a file already is at: 6 for a file made by the unversioned script, else 0. */
export function unversionedBaseline(raw: Database.Database): number {
  const made = raw
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'verifications'")
    .get();
  if (!made) return 0;
  raw.exec(unversionedSchema);
  // A file made before handoffs carried anything gets the column.
  const columns = raw.pragma('table_info(handoff_tokens)') as { name: string }[];
  if (!columns.some((c) => c.name === 'carry')) raw.exec('ALTER TABLE handoff_tokens ADD COLUMN carry TEXT');
  return 6;
}
