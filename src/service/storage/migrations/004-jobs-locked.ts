import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * The SQLite job queue's next wake-up (`sqlite-jobs.ts`) from two index lookups instead of a scan
 * of every job: the earliest unlocked job by `jobs_run_at`, the earliest lapsing lease by this
 * index of the few locked ones. Every live verification has its expiry job in the table, so the
 * scan grew with them (measured by bench:service's before/after). Nothing on PostgreSQL.
 */
export const jobsLocked: NumberedMigration = {
  version: 4,
  name: 'jobs-locked',
  sqlite: `CREATE INDEX jobs_locked ON jobs (locked_until) WHERE locked_until IS NOT NULL;`,
  postgres: `SELECT 1;`,
};
