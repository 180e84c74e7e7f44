import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * What the computer hands over to the phone with a handoff (consent time, documents chosen).
 */
export const handoffCarry: NumberedMigration = {
  version: 4,
  name: 'handoff-carry',
  sqlite: `
  ALTER TABLE handoff_tokens ADD COLUMN carry TEXT;
  `,
  postgres: `
  -- What the computer hands over to the phone with a handoff (consent time, documents chosen).
  ALTER TABLE handoff_tokens ADD COLUMN carry TEXT;
  `,
};
