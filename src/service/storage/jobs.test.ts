import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { waitFor } from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';
import type { JobPayload, JobQueue } from './jobs';
import { openSqlite } from './db';
import { PgJobs } from './pg-jobs';
import { SqliteJobs } from './sqlite-jobs';

const log = { warn: () => undefined, error: () => undefined };
const child = fileURLToPath(new URL('../testing/job-child.ts', import.meta.url));
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

interface Store {
  /** What the child process opens: the data dir of the SQLite file, or the connection string. */
  target: string;
  open(): JobQueue;
}

function sqliteStore(): Store {
  const dataDir = tempDataDir();
  return { target: dataDir, open: () => new SqliteJobs(openSqlite(dataDir).db, log) };
}

/** A schema of its own per test: no job of one test runs in another. */
function pgStore(): Store {
  const { url, schema } = freshSchemaUrl('idv_jobs');
  schemas.push(schema);
  // Quick polls and upkeep, so that runs left by a killed process come back within a test.
  return { target: url, open: () => new PgJobs(url, log, { pollSeconds: 0.5, maintenanceSeconds: 1 }) };
}

/** A queue whose `work` handler records what it ran. */
async function queueWithLog(store: Store) {
  const ran: JobPayload[] = [];
  const jobs = store.open();
  jobs.register(
    'work',
    async (payload) => {
      ran.push(payload);
    },
    { leaseSeconds: 1, concurrency: 2 },
  );
  await jobs.start();
  return { jobs, ran };
}

/** Runs the child, which schedules `work`/`left-behind` at runAt, and kills it (SIGKILL) on `until`. */
async function scheduleInKilledChild(where: 'sqlite' | 'pg', store: Store, runAt: number, until: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, where, store.target, String(runAt)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(until)) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`the child ended (${code}) before "${until}": ${out}`)));
  });
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

describe.each([
  { name: 'SQLite (in-process, in the service file)', where: 'sqlite' as const, store: sqliteStore },
  { name: 'PostgreSQL (pg-boss)', where: 'pg' as const, store: pgStore },
])('job queue on $name', ({ where, store }) => {
  it('runs a job when it is due, with its payload; scheduling again replaces it', async () => {
    const { jobs, ran } = await queueWithLog(store());
    try {
      // Due far enough ahead that the first `a` cannot run before it is replaced, on a busy machine too.
      await jobs.schedule('work', 'a', Date.now() + 2000, { n: 1 });
      await jobs.schedule('work', 'a', Date.now() + 2000, { n: 2 });
      // Due after `a`: once it ran, a first `a` left in place would have run too.
      await jobs.schedule('work', 'barrier', Date.now() + 3000, { n: 3 });
      await waitFor(async () => ran.some((p) => p.n === 3));
      expect(ran.map((p) => p.n).sort()).toEqual([2, 3]);
    } finally {
      await jobs.close();
    }
  });

  it('never runs a cancelled job', async () => {
    const { jobs, ran } = await queueWithLog(store());
    try {
      await jobs.schedule('work', 'cancelled', Date.now() + 2000, { n: 'cancelled' });
      await jobs.cancel('work', 'cancelled');
      // Due after the cancelled one would have been: once it ran, the cancelled one had its chance.
      await jobs.schedule('work', 'barrier', Date.now() + 3000, { n: 'barrier' });
      await waitFor(async () => ran.length > 0);
      await jobs.schedule('work', 'barrier-2', Date.now(), { n: 'barrier-2' });
      await waitFor(async () => ran.length > 1);
      expect(ran.map((p) => p.n)).toEqual(['barrier', 'barrier-2']);
    } finally {
      await jobs.close();
    }
  });

  it('keeps a job waiting when asked to (the catch-up at start)', async () => {
    const { jobs, ran } = await queueWithLog(store());
    try {
      await jobs.schedule('work', 'k', Date.now() + 300, { n: 'first' });
      await jobs.schedule('work', 'k', Date.now(), { n: 'second' }, { keep: true });
      await waitFor(async () => ran.length > 0);
      expect(ran).toEqual([{ n: 'first' }]);
    } finally {
      await jobs.close();
    }
  });

  it('retries a run that failed', async () => {
    const s = store();
    const jobs = s.open();
    let calls = 0;
    jobs.register(
      'work',
      async () => {
        calls++;
        if (calls === 1) throw new Error('first run fails');
      },
      { leaseSeconds: 5 },
    );
    await jobs.start();
    try {
      await jobs.schedule('work', 'flaky', Date.now(), {});
      // The retry comes after the first delay (5 s).
      await waitFor(async () => calls >= 2);
      expect(calls).toBe(2);
    } finally {
      await jobs.close();
    }
  });

  it('runs a job scheduled by a process killed (SIGKILL) before it was due', async () => {
    const s = store();
    await scheduleInKilledChild(where, s, Date.now() + 1000, 'scheduled');
    const { jobs, ran } = await queueWithLog(s);
    try {
      const payload = await waitFor(async () => ran.find((p) => typeof p.from === 'number'));
      expect(payload.from).toBeGreaterThan(0);
    } finally {
      await jobs.close();
    }
  });

  it('runs again a job whose process was killed (SIGKILL) during the run, once its lease lapsed', async () => {
    const s = store();
    await scheduleInKilledChild(where, s, Date.now(), 'running');
    const { jobs, ran } = await queueWithLog(s);
    try {
      await waitFor(async () => ran.length > 0);
      expect(ran).toHaveLength(1);
    } finally {
      await jobs.close();
    }
  });
});

describe('job queue on PostgreSQL', () => {
  it('keeps its jobs beside the schema of DATABASE_URL (<schema>_jobs), even before that one exists', async () => {
    const { url, schema } = freshSchemaUrl('idv_jobs');
    schemas.push(schema);
    const jobs = new PgJobs(url, log);
    jobs.register('work', async () => undefined, { leaseSeconds: 1 });
    await jobs.start();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await jobs.schedule('work', 'later', Date.now() + 3_600_000, {});
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(`${schema}_jobs`)}.job WHERE name = 'work'`,
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
      await jobs.close();
    }
  });
});
