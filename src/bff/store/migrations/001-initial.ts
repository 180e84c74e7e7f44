import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * The first schema: verifications and the sessions that own them, received events, credit checks,
 * staff sessions, media links and login attempts. SQLite keeps times as ISO text (epoch milliseconds
 * where they are compared with a clock), JSON as text, and breaks ties by rowid where PostgreSQL has a
 * `seq` column; the staff stream's big events go through PostgreSQL only (`pg-event-bus.ts`).
 */
export const initial: NumberedMigration = {
  version: 1,
  name: 'initial',
  sqlite: `
  CREATE TABLE session_verifications (
    session_id TEXT NOT NULL,
    verification_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, verification_id)
  );
  CREATE INDEX session_identity ON session_verifications (session_id, identity);
  CREATE TABLE verifications (
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
  CREATE TABLE events (
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
  CREATE INDEX events_verification ON events (verification_id, received_at);
  CREATE TABLE credit_checks (
    id TEXT PRIMARY KEY,
    country TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE TABLE staff_sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
  CREATE TABLE media (id TEXT PRIMARY KEY, url TEXT NOT NULL);
  CREATE TABLE login_attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
  `,
  postgres: `
  CREATE TABLE verifications (
    id TEXT PRIMARY KEY,
    identity TEXT,
    flow_id TEXT NOT NULL,
    flow_name TEXT,
    status TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    last_event TEXT,
    data JSONB
  );
  CREATE INDEX verifications_created ON verifications (created_at DESC);
  CREATE TABLE session_verifications (
    session_id TEXT NOT NULL,
    verification_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (session_id, verification_id)
  );
  CREATE INDEX session_identity ON session_verifications (session_id, identity);
  CREATE TABLE events (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body_hash TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,
    verification_id TEXT,
    credit_check_id TEXT,
    received_at TIMESTAMPTZ NOT NULL,
    processed_at TIMESTAMPTZ
  );
  CREATE INDEX events_verification ON events (verification_id, received_at);
  CREATE INDEX events_unprocessed ON events (received_at) WHERE processed_at IS NULL;
  CREATE TABLE credit_checks (
    id TEXT PRIMARY KEY,
    country TEXT NOT NULL,
    request JSONB NOT NULL,
    status TEXT NOT NULL,
    result JSONB,
    error TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    completed_at TIMESTAMPTZ
  );
  CREATE INDEX credit_checks_created ON credit_checks (created_at DESC);
  CREATE TABLE staff_sessions (id TEXT PRIMARY KEY, expires_at TIMESTAMPTZ NOT NULL);
  CREATE TABLE media (id TEXT PRIMARY KEY, url TEXT NOT NULL);
  CREATE TABLE login_attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at TIMESTAMPTZ NOT NULL);
  -- Staff stream events too big for a NOTIFY payload (8000 bytes): the notification carries the seq.
  CREATE TABLE stream_events (seq BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now());
  `,
};
