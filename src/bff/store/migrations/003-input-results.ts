import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * send-input's latest answer per input slot of a verification (why a refused input waits).
 */
export const inputResults: NumberedMigration = {
  version: 3,
  name: 'input-results',
  sqlite: `
  CREATE TABLE input_results (
    verification_id TEXT NOT NULL,
    slot TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    code TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (verification_id, slot)
  );
  CREATE INDEX verifications_identity ON verifications (identity, created_at);
  `,
  postgres: `
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
};
