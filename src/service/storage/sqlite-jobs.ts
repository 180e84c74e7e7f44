import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db';
import {
  MAX_ATTEMPTS,
  retryDelayMs,
  type JobHandler,
  type JobOptions,
  type JobPayload,
  type JobQueue,
  type ScheduleOptions,
} from './jobs';

const MAX_DELAY = 2 ** 31 - 1;

interface JobRow {
  name: string;
  key: string;
  version: string;
  payload: string;
  attempts: number;
}

/**
 * The job queue of a service on SQLite alone: jobs are rows of the service's own file, run by
 * this process. A stopped or killed process leaves them there, and the next one to open the file
 * runs the due ones; a run whose lease lapsed (its process died mid-run) is taken again.
 */
export class SqliteJobs implements JobQueue {
  private readonly handlers = new Map<string, { run: JobHandler; options: JobOptions }>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {
    // A table of its own beside the service's migrations: the queue is the only one to touch it.
    db.exec(`
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
    `);
  }

  register(name: string, run: JobHandler, options: JobOptions) {
    this.handlers.set(name, { run, options });
  }

  async start() {
    this.started = true;
    this.wake();
  }

  async schedule(
    name: string,
    key: string,
    runAt: number,
    payload: JobPayload,
    options: ScheduleOptions = {},
  ) {
    if (this.closed) return;
    const row = [name, key, runAt, JSON.stringify(payload), randomBytes(8).toString('hex')];
    // A new version: a run of the replaced one under way neither deletes nor reschedules it.
    this.db
      .prepare(
        `INSERT INTO jobs (name, key, run_at, payload, version) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name, key) DO ${
           options.keep
             ? 'NOTHING'
             : 'UPDATE SET run_at = excluded.run_at, payload = excluded.payload, attempts = 0, locked_until = NULL, version = excluded.version'
         }`,
      )
      .run(...row);
    this.wake();
  }

  async cancel(name: string, key: string) {
    if (this.closed) return;
    this.db.prepare('DELETE FROM jobs WHERE name = ? AND key = ?').run(name, key);
  }

  /** The timer of the next due job of a registered name (or of a lease that lapses). */
  private wake() {
    if (!this.started || this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.db
      .prepare(
        `SELECT min(max(run_at, coalesce(locked_until, 0))) AS at FROM jobs
         WHERE name IN (SELECT value FROM json_each(?))`,
      )
      .get(JSON.stringify([...this.handlers.keys()])) as { at: number | null };
    if (next.at === null) return;
    this.timer = setTimeout(() => this.tick(), Math.min(Math.max(0, next.at - Date.now()), MAX_DELAY));
    // Jobs never keep an otherwise finished process alive.
    this.timer.unref();
  }

  private tick() {
    this.timer = null;
    if (this.closed) return;
    const now = Date.now();
    const due = this.db
      .prepare(
        `SELECT name, key, version, payload, attempts FROM jobs
         WHERE run_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
           AND name IN (SELECT value FROM json_each(?))
         ORDER BY run_at LIMIT 100`,
      )
      .all(now, now, JSON.stringify([...this.handlers.keys()])) as JobRow[];
    for (const row of due) {
      const { options } = this.handlers.get(row.name)!;
      // Taken only if nobody (another process on the file) took it meanwhile.
      const claimed = this.db
        .prepare(
          `UPDATE jobs SET attempts = attempts + 1, locked_until = ?
           WHERE name = ? AND key = ? AND version = ? AND (locked_until IS NULL OR locked_until <= ?)`,
        )
        .run(now + options.leaseSeconds * 1000, row.name, row.key, row.version, now).changes;
      if (claimed) this.run({ ...row, attempts: row.attempts + 1 });
    }
    this.wake();
  }

  private run(row: JobRow) {
    const { run } = this.handlers.get(row.name)!;
    const where = 'WHERE name = ? AND key = ? AND version = ?';
    const ids = [row.name, row.key, row.version];
    const work = (async () => {
      let failure: unknown = null;
      try {
        await run(JSON.parse(row.payload) as JobPayload);
      } catch (error) {
        failure = error;
      }
      if (this.closed) {
        // Perhaps cut short by the stop: the next start runs it again, this attempt not counted.
        this.db.prepare(`UPDATE jobs SET locked_until = NULL, attempts = attempts - 1 ${where}`).run(...ids);
        return;
      }
      if (failure === null) this.db.prepare(`DELETE FROM jobs ${where}`).run(...ids);
      else if (row.attempts >= MAX_ATTEMPTS) {
        this.log.error({ err: failure, job: row.name, key: row.key }, 'job given up');
        this.db.prepare(`DELETE FROM jobs ${where}`).run(...ids);
      } else {
        this.log.warn({ err: failure, job: row.name, key: row.key }, 'job failed; tried again later');
        this.db
          .prepare(`UPDATE jobs SET locked_until = NULL, run_at = ? ${where}`)
          .run(Date.now() + retryDelayMs(row.attempts), ...ids);
      }
      this.wake();
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
