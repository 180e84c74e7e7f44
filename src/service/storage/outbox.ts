import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { request } from 'undici';
import type { DeliveryQueue, OutboxRow } from './delivery-queue';
import { redactUrl, type OutboundPolicy } from './outbound-url';

/** How soon a URL another instance was delivering to is looked at again. */
const OTHER_INSTANCE_RETRY_MS = 1000;

export const signBody = (body: string | Buffer, secret: string) =>
  createHmac('sha256', secret).update(body).digest('hex');

/**
 * Durable webhook outbox: an event is written in the same transaction as the state change that
 * caused it (`VerificationRepo.enqueueEvent`), then delivered from there; failures are retried on
 * the WEBHOOK_RETRY_SECONDS schedule, and pending deliveries resume when the service starts again.
 */
export class Outbox {
  /** Per receiver URL: a timer until its next due delivery, or a delivery under way. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly busy = new Set<string>();
  /** URLs asked for while busy: looked at again when the current step ends (it may have missed a row). */
  private readonly again = new Set<string>();
  private closed = false;
  private readonly shutdown = new AbortController();
  private resumeRetry: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly options: {
      secret: string;
      retrySeconds: number[];
      timeoutMs: number;
      log: FastifyBaseLogger;
      /** Where deliveries may go; checked again at every attempt. */
      policy: OutboundPolicy;
      /**
       * Runs a URL's deliveries unless another instance sharing the outbox runs them now (false),
       * so that each event goes once and a receiver's events go in order (`ServiceDb.tryExclusive`).
       */
      alone: (key: string, fn: () => Promise<void>) => Promise<boolean>;
    },
  ) {}

  /** Deliveries given up on, newest first: they stay until redelivered (or erased). */
  async failed(limit = 500) {
    const rows = await this.queue.failed(limit);
    return rows.map((row) => ({
      id: row.id,
      url: redactUrl(row.url),
      eventName: row.event_name,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: new Date(row.created_at).toISOString(),
      failedAt: new Date(row.failed_at).toISOString(),
    }));
  }

  /**
   * Sends failed deliveries again (the given ids, or all): each goes back in its receiver's queue
   * with a fresh retry schedule, in its original order.
   */
  async redeliver(ids?: number[]): Promise<number> {
    const count = await this.queue.redeliver(ids, Date.now());
    this.resume();
    return count;
  }

  /** Schedules every pending delivery (at start, and after new events were enqueued). */
  resume() {
    if (this.closed) return;
    this.queue.pendingUrls().then(
      (urls) => {
        for (const url of urls) this.pump(url);
      },
      (err: unknown) => {
        if (this.closed) return;
        // The database is away (PostgreSQL restarting, say): the events wait where they are.
        this.options.log.warn({ err }, 'webhook outbox not readable; trying again');
        this.resumeRetry ??= setTimeout(() => {
          this.resumeRetry = null;
          this.resume();
        }, 1000);
      },
    );
  }

  /**
   * Deliveries to one URL go one at a time in the order they were written, so a receiver sees a
   * verification's events in order; a failing receiver holds back only its own queue.
   */
  private pump(url: string) {
    if (this.closed || this.timers.has(url)) return;
    if (this.busy.has(url)) {
      this.again.add(url);
      return;
    }
    this.busy.add(url);
    this.again.delete(url);
    void this.stepAlone(url)
      .catch((err: unknown) => {
        if (!this.closed) this.options.log.warn({ err, url: redactUrl(url) }, 'webhook delivery step failed');
        this.schedule(url, 1000);
      })
      .finally(() => {
        this.busy.delete(url);
        if (this.again.delete(url)) this.pump(url);
      });
  }

  private schedule(url: string, delay: number) {
    if (this.closed || this.timers.has(url)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(url);
        this.pump(url);
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.timers.set(url, timer);
  }

  private async stepAlone(url: string) {
    const ran = await this.options.alone(`outbox:${url}`, () => this.step(url));
    // The instance delivering to this URL may be done before it sees the rows written here.
    if (!ran) this.schedule(url, OTHER_INSTANCE_RETRY_MS);
  }

  /** Delivers the due head of one URL's queue, then goes on with the next; or waits for it. */
  private async step(url: string) {
    while (!this.closed) {
      const row = await this.queue.next(url);
      if (!row || this.closed) return;
      const delay = row.next_at - Date.now();
      if (delay > 0) {
        this.schedule(url, delay);
        return;
      }
      await this.deliver(row);
    }
  }

  private async deliver(row: OutboxRow) {
    let error: string | null = null;
    try {
      const verdict = await this.options.policy.check(row.url);
      if (!verdict.ok) throw new Error(`refused by the outbound policy: ${verdict.reason}`);
      // undici's own request: it does not follow redirects, and its connections resolve names
      // through the policy, so the address checked is the address called.
      const response = await request(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature': signBody(row.body, this.options.secret),
        },
        body: row.body,
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.shutdown.signal]),
        dispatcher: this.options.policy.dispatcher,
      });
      await response.body.dump().catch(() => {});
      if (response.statusCode < 200 || response.statusCode > 299) error = `HTTP ${response.statusCode}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    // Cut short by the shutdown (the database may be closed): delivered again at the next start.
    if (this.closed) return;
    const attempts = row.attempts + 1;
    const now = Date.now();
    if (!error) {
      await this.queue.settle(row.id, { kind: 'delivered', at: now, attempts });
      return;
    }
    const wait = this.options.retrySeconds[attempts - 1];
    if (wait === undefined) {
      await this.queue.settle(row.id, { kind: 'failed', at: now, attempts, error });
      this.options.log.warn(
        { outboxId: row.id, url: redactUrl(row.url), error },
        'webhook delivery abandoned',
      );
      return;
    }
    await this.queue.settle(row.id, { kind: 'retry', nextAt: now + wait * 1000, attempts, error });
    this.options.log.info(
      { outboxId: row.id, url: redactUrl(row.url), error, retryInSeconds: wait },
      'webhook delivery failed',
    );
  }

  /**
   * Looks for pending deliveries every `ms` besides: with instances sharing the outbox, events
   * written by one that died before delivering them wait for no new event of another's.
   */
  resumeEvery(ms: number) {
    if (this.closed || this.sweep) return;
    this.sweep = setInterval(() => this.resume(), ms);
    this.sweep.unref();
  }

  async close() {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    this.shutdown.abort();
    if (this.resumeRetry) clearTimeout(this.resumeRetry);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
