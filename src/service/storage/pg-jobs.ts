import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { searchPathSchema } from '@/server-shared/pg-migrate';
import {
  heartbeat,
  LEASE_SECONDS,
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
  /** How often the instance looks for due jobs scheduled by other instances (one query for all names). */
  pollSeconds?: number;
  /** pg-boss's upkeep (archiving done jobs, giving up runs lapsed too often). */
  maintenanceSeconds?: number;
  /** See LEASE_SECONDS (tests shorten it). */
  leaseSeconds?: number;
}

/**
 * The job queue of services on one PostgreSQL database (DATABASE_URL), on pg-boss's tables: any
 * instance runs a due job. A job's id is a hash of its name and key, so scheduling again replaces
 * it (in one transaction). pg-boss's own workers are not used: they poll once per worker (an idle
 * instance sent 4.5 queries a second) and cut a run short at its lease. Here one poller per
 * instance hands due jobs to its free slots, and a heartbeat renews the lease of the runs under way;
 * a run whose instance died stops being renewed and is put back about a lease later.
 */
export class PgJobs implements JobQueue {
  private readonly handlers = new Map<string, { run: JobHandler; options: JobOptions }>();
  private readonly pool: pg.Pool;
  private boss: PgBoss | null = null;
  private ready: Promise<PgBoss> | null = null;
  private schema = '';
  /** Runs under way here: job id → name (the heartbeat renews them). */
  private readonly active = new Map<string, string>();
  private readonly runs = new Set<Promise<void>>();
  private readonly nudges = new Set<NodeJS.Timeout>();
  private pollTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private stopBeats: (() => void) | null = null;
  private closing = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    private readonly options: PgJobsOptions = {},
  ) {
    this.pool = new pg.Pool({ connectionString, max: 3 });
    this.pool.on('error', () => undefined);
  }

  private get leaseSeconds() {
    return this.options.leaseSeconds ?? LEASE_SECONDS;
  }

  register(name: string, run: JobHandler, options: JobOptions) {
    this.handlers.set(name, { run, options });
  }

  start() {
    this.ready ??= this.open();
    return this.ready.then(() => undefined);
  }

  private async open() {
    this.schema = await jobsSchemaOf(this.pool);
    const boss = new PgBoss({
      connectionString: this.connectionString,
      schema: this.schema,
      max: 2,
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
      for (const name of this.handlers.keys()) {
        const queue = {
          name,
          policy: 'standard' as const,
          retryLimit: MAX_ATTEMPTS,
          retryDelay: 5,
          retryBackoff: true,
          expireInSeconds: this.leaseSeconds,
        };
        await boss.createQueue(name, queue);
        // Created by an earlier version with other settings: these hold from now on.
        await boss.updateQueue(name, queue);
        // Jobs already waiting keep the lease they were sent with.
        await this.pool.query(
          `UPDATE ${this.table} SET expire_in = make_interval(secs => $2) WHERE name = $1 AND state < 'active'`,
          [name, this.leaseSeconds],
        );
      }
    });
    this.stopBeats = heartbeat(
      this.leaseSeconds,
      () => this.beat(),
      (err) => this.log.warn({ err }, 'job leases'),
    );
    this.poll();
    return boss;
  }

  private get table() {
    return `${pg.escapeIdentifier(this.schema)}.job`;
  }

  /**
   * Renews the runs under way here, and puts back those whose lease lapsed (their instance died)
   * as due now, rather than at pg-boss's next upkeep and a retry's delay. A run given up already
   * (its attempts spent) is left to pg-boss, which marks it failed.
   */
  private async beat() {
    if (this.active.size) {
      await this.pool.query(
        `UPDATE ${this.table} SET started_on = now() WHERE id = ANY($1::uuid[]) AND state = 'active'`,
        [[...this.active.keys()]],
      );
    }
    // While stopping, the runs under way are still renewed (they finish), none is taken.
    if (this.closing) return;
    const lapsed = await this.pool.query(
      `UPDATE ${this.table} SET state = 'retry', start_after = now()
       WHERE name = ANY($1) AND state = 'active' AND started_on + expire_in < now() AND retry_count < retry_limit`,
      [[...this.handlers.keys()]],
    );
    if (lapsed.rowCount) this.poll();
  }

  /** Looks for due jobs now (one look at a time; a look asked for during one follows it). */
  private poll() {
    if (this.closing) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.polling = (async () => {
      do {
        this.pollAgain = false;
        await this.takeDue();
      } while (this.pollAgain && !this.closing);
    })()
      .catch((err: unknown) => this.log.warn({ err }, 'jobs not taken'))
      .finally(() => {
        this.polling = null;
        if (this.closing) return;
        this.pollTimer = setTimeout(() => this.poll(), (this.options.pollSeconds ?? 2) * 1000);
        this.pollTimer.unref();
      });
  }

  /** One query for every name with a free slot; a fetch only for the names with due jobs. */
  private async takeDue() {
    const boss = this.boss;
    if (!boss) return;
    const free = new Map<string, number>();
    for (const [name, { options }] of this.handlers) {
      let busy = 0;
      for (const n of this.active.values()) if (n === name) busy++;
      const slots = (options.concurrency ?? 1) - busy;
      if (slots > 0) free.set(name, slots);
    }
    if (!free.size) return;
    // job_i5 (name, start_after) WHERE state < 'active': the waiting jobs' index.
    const { rows } = await this.pool.query<{ name: string }>(
      `SELECT DISTINCT name FROM ${this.table} WHERE name = ANY($1) AND state < 'active' AND start_after < now()`,
      [[...free.keys()]],
    );
    for (const { name } of rows) {
      if (this.closing) return;
      const jobs = await boss.fetch<JobPayload>(name, { batchSize: free.get(name)! });
      for (const job of jobs) this.run(name, job.id, job.data);
    }
  }

  private run(name: string, id: string, payload: JobPayload) {
    const { run } = this.handlers.get(name)!;
    this.active.set(id, name);
    const work = (async () => {
      let failure: unknown = null;
      try {
        await run(payload);
        // Perhaps cut short by the stop: failed, so that it is retried (here or elsewhere).
        if (this.closing) throw new Error('stopped during the run');
      } catch (error) {
        failure = error;
      }
      this.active.delete(id);
      if (failure === null) return this.boss?.complete(name, id);
      if (!this.closing) this.log.warn({ err: failure, job: name }, 'job failed; tried again later');
      const message = failure instanceof Error ? failure.message : String(failure);
      await this.boss?.fail(name, id, { message });
    })()
      .catch((err: unknown) => this.log.error({ err, job: name }, 'job not settled'))
      .finally(() => {
        this.runs.delete(work);
        // A slot is free: perhaps for a job that was due meanwhile.
        this.poll();
      });
    this.runs.add(work);
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
    this.nudge(runAt);
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
   * The job was scheduled here: this instance looks at once when it is due, rather than at its
   * next poll (other instances find it at theirs, should this one be gone).
   */
  private nudge(runAt: number) {
    const delay = runAt - Date.now();
    if (delay <= 0) return this.poll();
    if (delay > MAX_DELAY) return;
    const timer = setTimeout(() => {
      this.nudges.delete(timer);
      this.poll();
    }, delay);
    timer.unref();
    this.nudges.add(timer);
  }

  async close() {
    this.closing = true;
    for (const timer of this.nudges) clearTimeout(timer);
    this.nudges.clear();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    const boss = await this.ready?.catch(() => null);
    await this.polling;
    // Waits for the runs under way (each checks the service's own stop and returns), renewing them.
    await Promise.allSettled([...this.runs]);
    this.stopBeats?.();
    await boss?.stop({ graceful: true, wait: true, timeout: 30_000 });
    await this.pool.end();
  }
}
