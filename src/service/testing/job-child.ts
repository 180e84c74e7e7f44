// A process for the job queues' tests (storage/jobs.test.ts): it opens a queue (SQLite file or
// PostgreSQL), schedules one job at the given time, tells its parent on stdout, and waits to be
// killed; should it take the job before that, it hangs in it (and says so), so that the parent
// kills it mid-run.
import { openSqlite } from '../storage/db';
import { PgJobs } from '../storage/pg-jobs';
import { SqliteJobs } from '../storage/sqlite-jobs';
import type { JobQueue } from '../storage/jobs';

const [where, target, runAtText] = process.argv.slice(2);
const log = { warn: () => undefined, error: () => undefined };
const jobs: JobQueue =
  where === 'sqlite'
    ? new SqliteJobs(openSqlite(target).db, log)
    : new PgJobs(target, log, { pollSeconds: 0.5 });
jobs.register(
  'work',
  async () => {
    process.stdout.write('running\n');
    await new Promise(() => undefined);
  },
  { leaseSeconds: 1 },
);
await jobs.start();
await jobs.schedule('work', 'left-behind', Number(runAtText), { from: process.pid });
process.stdout.write('scheduled\n');
setInterval(() => undefined, 60_000);
