import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * Handoff tokens (by their SHA-256): shared by every instance, single use by a conditional UPDATE.
 */
export const handoffTokens: NumberedMigration = {
  version: 2,
  name: 'handoff-tokens',
  sqlite: `
  CREATE TABLE handoff_tokens (
    token_hash TEXT PRIMARY KEY,
    verification_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    flow_id TEXT NOT NULL,
    flow_name TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  CREATE INDEX handoff_tokens_verification ON handoff_tokens (verification_id, created_at);
  `,
  postgres: `
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
};
