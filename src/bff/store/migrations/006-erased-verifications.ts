import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * Erased verifications' ids (no personal data), so that a replayed webhook or a late fetch
 * recreates nothing of them.
 */
export const erasedVerifications: NumberedMigration = {
  version: 6,
  name: 'erased-verifications',
  sqlite: `
  CREATE TABLE erased_verifications (id TEXT PRIMARY KEY, erased_at TEXT NOT NULL);
  `,
  postgres: `
  -- Erased verifications' ids (no personal data), so that a replayed webhook or a late fetch
  -- recreates nothing of them.
  CREATE TABLE erased_verifications (id TEXT PRIMARY KEY, erased_at TIMESTAMPTZ NOT NULL);
  CREATE INDEX erased_verifications_at ON erased_verifications (erased_at);
  `,
};
