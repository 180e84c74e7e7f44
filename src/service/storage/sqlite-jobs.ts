import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  MAX_ATTEMPTS,
  retryDelayMs,
  type JobHandler,
  type JobOptions,
  type JobPayload,
  type JobQueue,
  type ScheduleOptions,
} from './jobs';
import type { ServiceTables } from './rows';

const MAX_DELAY = 2 ** 31 - 1;

interface JobRow {
  name: string;
  key: string;
  version: string;
  payload: string;
  attempts: number;
}

/**
 * The job queue of a service on SQLite alone: jobs are rows of the service's own file (the `jobs`
 * table, `migrations/002-jobs.ts`), run by this process. A stopped or killed process leaves them
 * there, and the next one to open the file runs the due ones; a run whose lease lapsed (its
 * process died mid-run) is taken again. Its statements go through the service's Kysely, so that
 * none of them falls inside another's open transaction.
 */
export class SqliteJobs implements JobQueue {
  private readonly handlers = new Map<string, { run: JobHandler; options: JobOptions }>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires: a job scheduled no earlier is looked for then, with no query now. */
  private timerAt = Infinity;
  private started = false;
  private closed = false;

  constructor(
    private readonly db: Kysely<ServiceTables>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {}

  register(name: string, run: JobHandler, options: JobOptions) {
    this.handlers.set(name, { run, options });
  }

  async start() {
    this.started = true;
    await this.wake();
  }

  async schedule(
    name: string,
    key: string,
    runAt: number,
    payload: JobPayload,
    options: ScheduleOptions = {},
  ) {
    if (this.closed) return;
    // A new version: a run of the replaced one under way neither deletes nor reschedules it.
    const version = randomBytes(8).toString('hex');
    await this.db
      .insertInto('jobs')
      .values({ name, key, run_at: runAt, payload: JSON.stringify(payload), version })
      .onConflict((oc) =>
        options.keep
          ? oc.columns(['name', 'key']).doNothing()
          : oc.columns(['name', 'key']).doUpdateSet((eb) => ({
              run_at: eb.ref('excluded.run_at'),
              payload: eb.ref('excluded.payload'),
              attempts: 0,
              locked_until: null,
              version: eb.ref('excluded.version'),
            })),
      )
      .execute();
    if (this.timer && runAt >= this.timerAt) return;
    await this.wake();
  }

  async cancel(name: string, key: string) {
    if (this.closed) return;
    await this.db.deleteFrom('jobs').where('name', '=', name).where('key', '=', key).execute();
  }

  private names() {
    return [...this.handlers.keys()];
  }

  /** The timer of the next due job of a registered name (or of a lease that lapses). */
  private async wake() {
    if (!this.started || this.closed || this.handlers.size === 0) return;
    // Two index lookups (jobs_run_at, jobs_locked), not a scan: every live verification has a
    // job. `+name` keeps SQLite's planner off the primary key, which it would take for the IN and
    // then read every job of those names.
    const byName = sql<string>`+name`;
    const unlocked = await this.db
      .selectFrom('jobs')
      .select('run_at as at')
      .where('locked_until', 'is', null)
      .where(byName, 'in', this.names())
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    const leased = await this.db
      .selectFrom('jobs')
      .select(sql<number | null>`min(max(run_at, locked_until))`.as('at'))
      .where('locked_until', 'is not', null)
      .where(byName, 'in', this.names())
      .executeTakeFirst();
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const times = [unlocked?.at, leased?.at].filter((t): t is number => t !== null && t !== undefined);
    const at = times.length ? Math.min(...times) : null;
    if (at === null) return;
    this.timerAt = at;
    this.timer = setTimeout(
      () => void this.tick().catch((err: unknown) => this.log.error({ err }, 'jobs not taken')),
      Math.min(Math.max(0, at - Date.now()), MAX_DELAY),
    );
    // Jobs never keep an otherwise finished process alive.
    this.timer.unref();
  }

  private async tick() {
    this.timer = null;
    if (this.closed) return;
    const now = Date.now();
    const due: JobRow[] = await this.db
      .selectFrom('jobs')
      .select(['name', 'key', 'version', 'payload', 'attempts'])
      .where('run_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .where('name', 'in', this.names())
      .orderBy('run_at')
      .limit(100)
      .execute();
    for (const row of due) {
      const { options } = this.handlers.get(row.name)!;
      // Taken only if nobody (another process on the file) took it meanwhile.
      const claimed = await this.db
        .updateTable('jobs')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), locked_until: now + options.leaseSeconds * 1000 }))
        .where('name', '=', row.name)
        .where('key', '=', row.key)
        .where('version', '=', row.version)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows)) this.run({ ...row, attempts: row.attempts + 1 });
    }
    await this.wake();
  }

  private run(row: JobRow) {
    const { run } = this.handlers.get(row.name)!;
    const thisRun = () =>
      this.db
        .updateTable('jobs')
        .where('name', '=', row.name)
        .where('key', '=', row.key)
        .where('version', '=', row.version);
    const remove = () =>
      this.db
        .deleteFrom('jobs')
        .where('name', '=', row.name)
        .where('key', '=', row.key)
        .where('version', '=', row.version)
        .execute();
    const work = (async () => {
      let failure: unknown = null;
      try {
        await run(JSON.parse(row.payload) as JobPayload);
      } catch (error) {
        failure = error;
      }
      if (this.closed) {
        // Perhaps cut short by the stop: the next start runs it again, this attempt not counted.
        await thisRun()
          .set((eb) => ({ locked_until: null, attempts: eb('attempts', '-', 1) }))
          .execute();
        return;
      }
      if (failure === null) await remove();
      else if (row.attempts >= MAX_ATTEMPTS) {
        this.log.error({ err: failure, job: row.name, key: row.key }, 'job given up');
        await remove();
      } else {
        this.log.warn({ err: failure, job: row.name, key: row.key }, 'job failed; tried again later');
        await thisRun()
          .set({ locked_until: null, run_at: Date.now() + retryDelayMs(row.attempts) })
          .execute();
      }
      await this.wake();
    })().catch((err: unknown) => this.log.error({ err, job: row.name, key: row.key }, 'job not settled'));
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }
}
