import type { ServiceContext } from './context';
import { syntheticBureauResult } from './credit-bureau';
import { newId } from './lifecycle';

/**
 * Credit checks (wire contract §8) as durable work: `accept` stores the request as pending and
 * schedules the `credit-check` job; the job computes the result and, in one transaction, marks
 * the check completed and writes its callback to the outbox. Any instance on PostgreSQL runs it
 * (one that died before it ran leaves it to the others), the next start on SQLite. A job runs at
 * least once: a second run finds the check completed (under its row lock on PostgreSQL) and does
 * nothing, so one callback goes per check.
 */
export class CreditChecks {
  constructor(private readonly ctx: ServiceContext) {
    ctx.jobs.register('credit-check', (payload) => this.complete(String(payload.id)), {
      leaseSeconds: 60,
      concurrency: 2,
    });
  }

  /** Stores the request (with its callbackUrl) and schedules its result; answered before it runs. */
  async accept(country: 'ar' | 'br', request: Record<string, unknown> & { callbackUrl: string }) {
    const id = newId();
    await this.ctx.repo.insertCreditCheck({
      id,
      country,
      request: JSON.stringify(request),
      status: 'pending',
      result: null,
      created_at: Date.now(),
    });
    await this.schedule(id);
    return id;
  }

  private schedule(id: string, keep = false) {
    return this.ctx.jobs.schedule('credit-check', id, Date.now(), { id }, { keep }).catch((err: unknown) => {
      // resume() at the next start schedules it again.
      this.ctx.log.error({ err, creditCheck: id }, 'credit check not scheduled');
    });
  }

  /** The job: the result and its callback, once. */
  async complete(id: string) {
    const done = await this.ctx.repo.transaction(async (tx) => {
      const check = await tx.creditCheck(id, { forUpdate: true });
      // Completed by an earlier run, or erased by retention meanwhile.
      if (!check || check.status !== 'pending') return false;
      const { callbackUrl, ...request } = JSON.parse(check.request) as Record<string, unknown> & {
        callbackUrl: string;
      };
      const country = check.country as 'ar' | 'br';
      const result = syntheticBureauResult(country, request as Parameters<typeof syntheticBureauResult>[1]);
      await tx.completeCreditCheck(id, JSON.stringify(result));
      await tx.enqueueEvent(callbackUrl, 'credit_check_completed', {
        eventName: 'credit_check_completed',
        id,
        country,
        request,
        result,
        // Signed with the body: a receiver refuses an old one replayed (issue 34 item 3).
        timestamp: new Date().toISOString(),
      });
      return true;
    });
    if (done) this.ctx.outbox.resume();
  }

  /** At start: a job for every check still pending (its process died before scheduling it). */
  async resume() {
    for (const id of await this.ctx.repo.pendingCreditChecks()) await this.schedule(id, true);
  }
}
