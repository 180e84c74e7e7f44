import type { ServiceContext } from './context';
import type { Lifecycle } from './lifecycle';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Personal data is not kept forever: once a day (and at start) every verification untouched for
 * `RETENTION_DAYS` (an expired one after `RETENTION_EXPIRED_DAYS`) is erased the way
 * `DELETE /v2/verifications/{id}` erases it (inputs, media files, events), and credit checks and
 * webhook events older than `RETENTION_DAYS` go too. 0 days keeps everything. The sweep is a job
 * that schedules its next run: one job for all instances (a start moves it to now).
 */
export class RetentionSweep {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: Lifecycle,
  ) {
    ctx.jobs.register(
      'retention',
      async () => {
        await this.sweep();
        await this.ctx.jobs.schedule('retention', 'daily', Date.now() + DAY_MS, {});
      },
      // Erasing many verifications takes a while; a killed instance's sweep waits this long.
      { leaseSeconds: 3600 },
    );
  }

  /** When a verification last touched at `updatedAt` will be erased (null: never). */
  static deletionDate(
    config: { retentionDays: number; retentionExpiredDays: number },
    v: { updatedAt: number; expired: boolean },
  ): Date | null {
    const days = v.expired ? config.retentionExpiredDays : config.retentionDays;
    return days > 0 ? new Date(v.updatedAt + days * DAY_MS) : null;
  }

  async sweep(now = Date.now()) {
    const { retentionDays, retentionExpiredDays } = this.ctx.config;
    const due = await this.ctx.repo.dueForErasure(retentionDays, retentionExpiredDays, now);
    for (const v of due) await this.lifecycle.erase(v);
    let creditChecks = 0;
    let events = 0;
    if (retentionDays > 0) {
      ({ creditChecks, events } = await this.ctx.repo.transaction((tx) =>
        tx.sweepBefore(now - retentionDays * DAY_MS),
      ));
    }
    const swept = { verifications: due.length, creditChecks, events };
    if (due.length || creditChecks || events) this.ctx.log.info(swept, 'retention sweep');
    return swept;
  }

  /** A sweep now (at start), then daily; call once the job queue is started. */
  start() {
    this.ctx.jobs
      .schedule('retention', 'daily', Date.now(), {})
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'retention sweep not scheduled'));
  }
}
