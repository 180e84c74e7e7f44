import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * The service's tables. On PostgreSQL they are named `service_*`, so that the service and the
 * BFF may share one database (the BFF has `verifications`, `media` and `credit_checks` of its
 * own); the queries name them as on SQLite (`table-prefix.ts` renames them). Times are epoch
 * milliseconds, booleans 0/1 and JSON text in both, so that a row reads alike from either.
 * PostgreSQL's `seq` breaks ties between verifications created in the same millisecond, as
 * SQLite's rowid does.
 */
export const initial: NumberedMigration = {
  version: 1,
  name: 'initial',
  sqlite: `
  CREATE TABLE verifications (
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
    updated_at INTEGER NOT NULL,
    challenge TEXT
  );
  CREATE INDEX verifications_identity ON verifications (identity, created_at);
  CREATE TABLE inputs (
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
  CREATE TABLE media (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    verification_id TEXT
  );
  CREATE INDEX media_verification ON media (verification_id);
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
  postgres: `
  CREATE TABLE service_verifications (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
    identity TEXT NOT NULL,
    flow_id TEXT NOT NULL,
    metadata TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    expired INTEGER NOT NULL DEFAULT 0,
    skip_wait INTEGER NOT NULL DEFAULT 0,
    wait_until BIGINT,
    expires_at BIGINT,
    started_at BIGINT,
    inputs_completed_at BIGINT,
    completed_at BIGINT,
    ip TEXT,
    ua TEXT,
    result TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    challenge TEXT
  );
  CREATE INDEX service_verifications_identity ON service_verifications (identity, created_at DESC, seq DESC);
  CREATE INDEX service_verifications_unfinished ON service_verifications (status) WHERE status IN ('pending', 'running');
  CREATE TABLE service_inputs (
    verification_id TEXT NOT NULL,
    slot TEXT NOT NULL,
    position INTEGER NOT NULL,
    input_type TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    descriptor TEXT NOT NULL,
    media_id TEXT,
    facts TEXT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (verification_id, slot)
  );
  CREATE TABLE service_media (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    format TEXT NOT NULL,
    size BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    verification_id TEXT
  );
  CREATE INDEX service_media_verification ON service_media (verification_id);
  -- Made by older releases, which kept only the webhook outbox on PostgreSQL.
  CREATE TABLE IF NOT EXISTS service_outbox (
    id BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    delivered_at BIGINT,
    failed_at BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS service_outbox_pending ON service_outbox (url, id) WHERE delivered_at IS NULL AND failed_at IS NULL;
  CREATE TABLE service_credit_checks (
    id TEXT PRIMARY KEY,
    country TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    created_at BIGINT NOT NULL
  );
  `,
};
