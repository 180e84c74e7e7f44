import type { FastifyBaseLogger } from 'fastify';
import { PeriodicTask } from '@/server-shared/periodic-task';
import type { BffStore } from '../store/store';
import type { VerificationSync } from './verification-sync';

/** Verifications older than this are not reconciled any more (the service expires them sooner). */
const RECONCILE_WINDOW_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * Webhook catch-up from the BFF's side: a webhook lost while the BFF was away (the service's
 * retries exhausted) would leave a verification unfinished here for good. At start and every
 * `everyMs`, the data of every recent verification the store knows is fetched again, one at a
 * time (pending and running first); the service being away just leaves it for the next round.
 * One the service answers 404 for was erased there (a hosted service sends no
 * `verification_deleted`): its copy here is erased too (VerificationSync.refresh).
 */
export class Reconciler {
  private readonly schedule: PeriodicTask<number>;

  constructor(
    private readonly store: BffStore,
    private readonly sync: VerificationSync,
    private readonly log: FastifyBaseLogger,
    everyMs: number,
  ) {
    this.schedule = new PeriodicTask(
      () => this.reconcile(),
      everyMs,
      (err) => this.log.warn({ err }, 'reconcile round failed'),
    );
  }

  /** One round (joined if one is under way); resolves to the number of verifications refreshed. */
  runOnce(): Promise<number> {
    return this.schedule.runOnce();
  }

  private async reconcile() {
    const since = Date.now() - RECONCILE_WINDOW_MS;
    const all = await this.store.listVerifications({});
    const unfinished = [
      ...all.filter((v) => v.status === 'pending' || v.status === 'running'),
      ...all.filter((v) => v.status !== 'pending' && v.status !== 'running'),
    ].filter((v) => Date.parse(v.createdAt) >= since);
    let refreshed = 0;
    for (const verification of unfinished) {
      try {
        await this.sync.refresh(verification.id);
        refreshed++;
      } catch (err) {
        this.log.info({ err, verificationId: verification.id }, 'reconcile: not refreshed this round');
      }
    }
    return refreshed;
  }

  start() {
    this.schedule.start();
  }

  stop() {
    return this.schedule.stop();
  }
}
