/** What a job carries: JSON, read back by its handler. */
export type JobPayload = Record<string, unknown>;

/**
 * Runs one job. Jobs are delivered at least once (a process that died mid-run, a stop, a retry
 * after a failure): a handler reads the state it acts on and does nothing when that is done.
 */
export type JobHandler = (payload: JobPayload) => Promise<void>;

export interface JobOptions {
  /**
   * Longest a run may take: past it the job counts as lost (its process died) and another run
   * starts, so it must exceed any honest run.
   */
  leaseSeconds: number;
  /** Runs of this name at once in one process (PostgreSQL; SQLite runs every due job at once). */
  concurrency?: number;
}

export interface ScheduleOptions {
  /** A job of the same name and key waiting or under way stays as it is (a catch-up at start). */
  keep?: boolean;
}

/**
 * Deadlines and background work that outlive the process that scheduled them: on PostgreSQL
 * (`pg-jobs.ts`, any instance runs a due job) or in the service's SQLite file (`sqlite-jobs.ts`,
 * the next start runs what a stopped or killed process left).
 */
export interface JobQueue {
  /** Before `start`: the handler of every job of that name. */
  register(name: string, handler: JobHandler, options: JobOptions): void;
  /** Runs due jobs from now on, those left by earlier processes included. */
  start(): Promise<void>;
  /**
   * The job `key` of `name` runs at `runAt` (epoch ms; at once when past) with `payload`; it
   * replaces a job of the same name and key not yet run (with `keep`, such a job stays as it is).
   * A job may still run early (a replaced run that failed): handlers check the time too.
   */
  schedule(
    name: string,
    key: string,
    runAt: number,
    payload: JobPayload,
    options?: ScheduleOptions,
  ): Promise<void>;
  /** The job of that name and key will not run (one under way finishes). */
  cancel(name: string, key: string): Promise<void>;
  /** Stops taking jobs and waits for the runs under way; a run cut short runs again later. */
  close(): Promise<void>;
}

/** Delay before the n-th retry of a failed run (1-based): 5 s doubling, at most 10 minutes. */
export const retryDelayMs = (attempt: number) => Math.min(5000 * 2 ** (attempt - 1), 600_000);

/** Failed runs of one job before it is given up (and logged). */
export const MAX_ATTEMPTS = 10;
