import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * The job queue of a service on SQLite alone (`sqlite-jobs.ts`). A file of the release that
 * brought the jobs has the table already (it was made at open then, hence IF NOT EXISTS). On
 * PostgreSQL the jobs are pg-boss's, in a schema of its own (`pg-jobs.ts`): nothing to do here.
 */
export const jobs: NumberedMigration = {
  version: 2,
  name: 'jobs',
  sqlite: `
  CREATE TABLE IF NOT EXISTS jobs (
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    run_at INTEGER NOT NULL,
    payload TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    locked_until INTEGER,
    version TEXT NOT NULL,
    PRIMARY KEY (name, key)
  );
  CREATE INDEX IF NOT EXISTS jobs_run_at ON jobs (run_at);
  `,
  postgres: `SELECT 1;`,
};
