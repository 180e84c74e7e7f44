import type { FastifyBaseLogger } from 'fastify';
import { PeriodicTask } from '@/server-shared/periodic-task';
import type { BffStore } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The BFF's copy of personal data (verification data, webhook bodies, credit-check results) goes
 * `RETENTION_DAYS` after its last change, swept at start and daily; 0 keeps everything. Each
 * verification is erased as a staff erasure erases it (`erase`: with its media links and handoff
 * links), then what is left of the old rows in bulk.
 */
export class RetentionSweep {
  private readonly schedule = new PeriodicTask(
    () => this.sweep(),
    DAY_MS,
    (err) => this.log.warn({ err }, 'retention sweep failed'),
  );

  constructor(
    private readonly store: BffStore,
    private readonly log: FastifyBaseLogger,
    private readonly retentionDays: number,
    private readonly erase: (verificationId: string) => Promise<void>,
  ) {}

  /** When the sweep deletes a verification last changed at `updatedAt` (null: never). */
  static deletionDate(retentionDays: number, updatedAt: string): string | null {
    if (retentionDays <= 0) return null;
    // A sweep runs daily: the copy is gone within a day of this.
    return new Date(Date.parse(updatedAt) + retentionDays * DAY_MS).toISOString();
  }

  async sweep(now = Date.now()) {
    if (this.retentionDays <= 0) return 0;
    const cutoff = new Date(now - this.retentionDays * DAY_MS);
    const due = await this.store.verificationsUnchangedSince(cutoff);
    for (const id of due) await this.erase(id);
    const removed = due.length + (await this.store.deleteOlderThan(cutoff));
    if (removed) this.log.info({ removed }, 'retention sweep');
    return removed;
  }

  start() {
    this.schedule.start();
  }

  stop() {
    return this.schedule.stop();
  }
}
