import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { searchPathSchema } from '@/server-shared/pg-migrate';
import {
  MAX_ATTEMPTS,
  type JobHandler,
  type JobOptions,
  type JobPayload,
  type JobQueue,
  type ScheduleOptions,
} from './jobs';

const MAX_DELAY = 2 ** 31 - 1;

/** Key of the advisory lock under which a starting instance creates its queues. */
const QUEUES_LOCK = 'idv-service-job-queues';

/** A stable UUID (pg-boss's job id) of a job's name and key: a later schedule or cancel finds it. */
export function jobUuid(name: string, key: string) {
  const h = createHash('sha256').update(`${name}\u0000${key}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss's schema: beside the connection's own (`<schema>_jobs`, so that each test schema has
 * its queue), or `service_jobs` on `public`.
 */
export async function jobsSchemaOf(pool: pg.Pool) {
  // The search_path's, not current_schema(): that one is null until the schema exists.
  const schema = await searchPathSchema(pool);
  return schema ? `${schema}_jobs` : 'service_jobs';
}

export interface PgJobsOptions {
  /** How often an idle worker looks for due jobs scheduled by other instances. */
  pollSeconds?: number;
  /** How often runs whose lease lapsed (their process died) are put back, among pg-boss's upkeep. */
  maintenanceSeconds?: number;
}

/**
 * The job queue of services on one PostgreSQL database (DATABASE_URL), on pg-boss: any instance
 * runs a due job; a run whose process died is retried by another once its lease lapses. A job's
 * id is a hash of its name and key, so scheduling again replaces it (in one transaction).
 */
export class PgJobs implements JobQueue {
  private readonly handlers = new Map<string, { run: JobHandler; options: JobOptions }>();
  private readonly pool: pg.Pool;
  private boss: PgBoss | null = null;
  private ready: Promise<PgBoss> | null = null;
  /** This instance's workers per job name, woken when it schedules a job due now or soon. */
  private readonly workers = new Map<string, string[]>();
  private readonly nudges = new Set<NodeJS.Timeout>();
  private closing = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    private readonly options: PgJobsOptions = {},
  ) {
    this.pool = new pg.Pool({ connectionString, max: 2 });
    this.pool.on('error', () => undefined);
  }

  register(name: string, run: JobHandler, options: JobOptions) {
    this.handlers.set(name, { run, options });
  }

  start() {
    this.ready ??= this.open();
    return this.ready.then(() => undefined);
  }

  private async open() {
    const boss = new PgBoss({
      connectionString: this.connectionString,
      schema: await jobsSchemaOf(this.pool),
      max: 3,
      // No cron: the service's periodic work reschedules itself.
      schedule: false,
      maintenanceIntervalSeconds: this.options.maintenanceSeconds ?? 30,
      // Done jobs are kept an hour, then archived for a day, then gone.
      archiveCompletedAfterSeconds: 3600,
      deleteAfterDays: 1,
    });
    boss.on('error', (err) => {
      if (!this.closing) this.log.warn({ err }, 'job queue');
    });
    // Migrates its schema under an advisory lock: instances that start together take turns.
    await boss.start();
    this.boss = boss;
    // pg-boss deadlocks when instances that start together create the same queues at once.
    await this.oneAtATime(QUEUES_LOCK, async () => {
      for (const [name, { options }] of this.handlers) {
        const queue = {
          name,
          policy: 'standard' as const,
          retryLimit: MAX_ATTEMPTS,
          retryDelay: 5,
          retryBackoff: true,
          expireInSeconds: options.leaseSeconds,
        };
        await boss.createQueue(name, queue);
        // Created by an earlier version with other settings: these hold from now on.
        await boss.updateQueue(name, queue);
      }
    });
    for (const [name, { run, options }] of this.handlers) {
      const ids: string[] = [];
      for (let i = 0; i < (options.concurrency ?? 1); i++) {
        ids.push(
          await boss.work<JobPayload>(
            name,
            { pollingIntervalSeconds: this.options.pollSeconds ?? 2, batchSize: 1 },
            async ([job]) => {
              await run(job.data);
              // Perhaps cut short by the stop: failed, so that it is retried (here or elsewhere).
              if (this.closing) throw new Error('stopped during the run');
            },
          ),
        );
      }
      this.workers.set(name, ids);
    }
    return boss;
  }

  /** fn under an advisory lock, so that instances starting together take turns. */
  private async oneAtATime(key: string, fn: () => Promise<void>) {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      try {
        await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
      }
    } finally {
      client.release();
    }
  }

  private async transaction(work: (db: PgBoss.Db) => Promise<void>) {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await work({ executeSql: (text, values) => client.query(text, values) });
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async schedule(
    name: string,
    key: string,
    runAt: number,
    payload: JobPayload,
    options: ScheduleOptions = {},
  ) {
    if (!this.handlers.has(name)) throw new Error(`no handler for the job ${name}`);
    const boss = await this.started();
    const id = jobUuid(name, key);
    if (options.keep) {
      const existing = await boss.getJobById(name, id);
      if (existing && ['created', 'retry', 'active'].includes(existing.state)) return;
    }
    await this.transaction(async (db) => {
      await boss.deleteJob(name, id, { db });
      await boss.send(name, payload, { id, startAfter: new Date(runAt), db });
    });
    this.nudge(name, runAt);
  }

  async cancel(name: string, key: string) {
    const boss = await this.started();
    await boss.deleteJob(name, jobUuid(name, key));
  }

  private started() {
    if (!this.ready) throw new Error('the job queue is not started');
    return this.ready;
  }

  /**
   * The job was scheduled here: this instance's workers look at once when it is due, rather than
   * at their next poll (other instances find it at theirs, should this one be gone).
   */
  private nudge(name: string, runAt: number) {
    const wake = () => {
      for (const id of this.workers.get(name) ?? []) this.boss?.notifyWorker(id);
    };
    const delay = runAt - Date.now();
    if (delay <= 0) return wake();
    if (delay > MAX_DELAY) return;
    const timer = setTimeout(() => {
      this.nudges.delete(timer);
      wake();
    }, delay);
    timer.unref();
    this.nudges.add(timer);
  }

  async close() {
    this.closing = true;
    for (const timer of this.nudges) clearTimeout(timer);
    this.nudges.clear();
    const boss = await this.ready?.catch(() => null);
    // Waits for the runs under way (each checks the service's own stop and returns).
    await boss?.stop({ graceful: true, wait: true, timeout: 30_000 });
    await this.pool.end();
  }
}
