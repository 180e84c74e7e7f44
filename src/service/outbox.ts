import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { request } from 'undici';
import type { Db } from './db';
import { redactUrl, type OutboundPolicy } from './outbound-url';

interface OutboxRow {
  id: number;
  url: string;
  body: string;
  attempts: number;
  next_at: number;
}

export const signBody = (body: string | Buffer, secret: string) =>
  createHmac('sha256', secret).update(body).digest('hex');

/**
 * Durable webhook outbox: an event is written to SQLite in the same step as the state change
 * that caused it, then delivered; failures are retried on the WEBHOOK_RETRY_SECONDS schedule,
 * and pending deliveries resume when the service starts again.
 */
export class Outbox {
  /** Per receiver URL: a timer until its next due delivery, or a delivery under way. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly busy = new Set<string>();
  private closed = false;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly options: {
      secret: string;
      retrySeconds: number[];
      timeoutMs: number;
      log: FastifyBaseLogger;
      /** Where deliveries may go; checked again at every attempt. */
      policy: OutboundPolicy;
    },
  ) {}

  /** Call inside the transaction that makes the change; delivery starts after `flush`. */
  enqueue(url: string, eventName: string, payload: unknown): number {
    const now = Date.now();
    const info = this.db
      .prepare('INSERT INTO outbox (url, event_name, body, next_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(url, eventName, JSON.stringify(payload), now, now);
    return Number(info.lastInsertRowid);
  }

  /**
   * Erasure: every event about one resource goes, delivered or not (its body carries the
   * verification's metadata, and a receiver could only fetch a verification that is gone).
   * Call inside the erasing transaction; the path is made of service ids (no LIKE wildcards).
   */
  dropAllFor(resourcePath: string) {
    this.db.prepare('DELETE FROM outbox WHERE body LIKE ?').run(`%${resourcePath}"%`);
  }

  /** Deliveries given up on, newest first: they stay until redelivered (or erased). */
  failed(limit = 500) {
    const rows = this.db
      .prepare(
        'SELECT id, url, event_name, attempts, last_error, created_at, failed_at FROM outbox WHERE failed_at IS NOT NULL ORDER BY id DESC LIMIT ?',
      )
      .all(limit) as {
      id: number;
      url: string;
      event_name: string;
      attempts: number;
      last_error: string | null;
      created_at: number;
      failed_at: number;
    }[];
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
  redeliver(ids?: number[]): number {
    const now = Date.now();
    const reset = this.db.prepare(
      'UPDATE outbox SET failed_at = NULL, attempts = 0, next_at = ?, last_error = NULL WHERE failed_at IS NOT NULL AND id = ?',
    );
    let count = 0;
    this.db.transaction(() => {
      const targets =
        ids ??
        (this.db.prepare('SELECT id FROM outbox WHERE failed_at IS NOT NULL').all() as { id: number }[]).map(
          (r) => r.id,
        );
      for (const id of targets) count += reset.run(now, id).changes;
    })();
    this.resume();
    return count;
  }

  /** Schedules every pending delivery (at start, and after new events were enqueued). */
  resume() {
    if (this.closed) return;
    const urls = this.db
      .prepare('SELECT DISTINCT url FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL')
      .all() as { url: string }[];
    for (const { url } of urls) this.pump(url);
  }

  /**
   * Deliveries to one URL go one at a time in the order they were written, so a receiver sees a
   * verification's events in order; a failing receiver holds back only its own queue.
   */
  private pump(url: string) {
    if (this.closed || this.busy.has(url) || this.timers.has(url)) return;
    const row = this.db
      .prepare(
        'SELECT id, url, body, attempts, next_at FROM outbox WHERE url = ? AND delivered_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT 1',
      )
      .get(url) as OutboxRow | undefined;
    if (!row) return;
    const delay = row.next_at - Date.now();
    if (delay > 0) {
      const timer = setTimeout(
        () => {
          this.timers.delete(url);
          this.pump(url);
        },
        Math.min(delay, 2 ** 31 - 1),
      );
      this.timers.set(url, timer);
      return;
    }
    this.busy.add(url);
    void this.deliver(row).finally(() => {
      this.busy.delete(url);
      this.pump(url);
    });
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
      this.db
        .prepare('UPDATE outbox SET delivered_at = ?, attempts = ?, last_error = NULL WHERE id = ?')
        .run(now, attempts, row.id);
      return;
    }
    const wait = this.options.retrySeconds[attempts - 1];
    if (wait === undefined) {
      this.db
        .prepare('UPDATE outbox SET failed_at = ?, attempts = ?, last_error = ? WHERE id = ?')
        .run(now, attempts, error, row.id);
      this.options.log.warn(
        { outboxId: row.id, url: redactUrl(row.url), error },
        'webhook delivery abandoned',
      );
      return;
    }
    this.db
      .prepare('UPDATE outbox SET next_at = ?, attempts = ?, last_error = ? WHERE id = ?')
      .run(now + wait * 1000, attempts, error, row.id);
    this.options.log.info(
      { outboxId: row.id, url: redactUrl(row.url), error, retryInSeconds: wait },
      'webhook delivery failed',
    );
  }

  close() {
    this.closed = true;
    this.shutdown.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
