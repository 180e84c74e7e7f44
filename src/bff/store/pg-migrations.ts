/**
 * The BFF's PostgreSQL schema, as ordered migrations: index + 1 is the version recorded in
 * `bff_migrations`. Append only; never edit one that has shipped.
 */
export const pgMigrations: string[] = [
  `
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
  `
  -- Handoff tokens (by their SHA-256): shared by every instance, single use by a conditional UPDATE.
  CREATE TABLE handoff_tokens (
    token_hash TEXT PRIMARY KEY,
    verification_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    flow_id TEXT NOT NULL,
    flow_name TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
  );
  CREATE INDEX handoff_tokens_verification ON handoff_tokens (verification_id, created_at);
  CREATE INDEX handoff_tokens_expires ON handoff_tokens (expires_at);
  `,
  `
  -- send-input's latest answer per input slot of a verification (why a refused input waits).
  CREATE TABLE input_results (
    verification_id TEXT NOT NULL,
    slot TEXT NOT NULL,
    accepted BOOLEAN NOT NULL,
    code TEXT,
    at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (verification_id, slot)
  );
  CREATE INDEX verifications_identity ON verifications (identity, created_at DESC);
  `,
  `
  -- What the computer hands over to the phone with a handoff (consent time, documents chosen).
  ALTER TABLE handoff_tokens ADD COLUMN carry TEXT;
  `,
  `
  -- Reviewers' decisions: who (a staff session's fingerprint), when, the reason and a note.
  CREATE TABLE reviews (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    verification_id TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL,
    note TEXT,
    reviewer TEXT NOT NULL,
    decided_at TIMESTAMPTZ NOT NULL
  );
  CREATE INDEX reviews_verification ON reviews (verification_id, decided_at DESC);
  `,
  `
  -- Erased verifications' ids (no personal data), so that a replayed webhook or a late fetch
  -- recreates nothing of them.
  CREATE TABLE erased_verifications (id TEXT PRIMARY KEY, erased_at TIMESTAMPTZ NOT NULL);
  CREATE INDEX erased_verifications_at ON erased_verifications (erased_at);
  `,
];
