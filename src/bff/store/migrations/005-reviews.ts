import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * Reviewers' decisions: who (a staff session's fingerprint), when, the reason and a note.
 */
export const reviews: NumberedMigration = {
  version: 5,
  name: 'reviews',
  sqlite: `
  CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    verification_id TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL,
    note TEXT,
    reviewer TEXT NOT NULL,
    decided_at TEXT NOT NULL
  );
  CREATE INDEX reviews_verification ON reviews (verification_id, decided_at);
  `,
  postgres: `
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
};
