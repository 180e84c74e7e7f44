import type { Kysely } from 'kysely';
import type { ServiceTables } from './rows';

export interface OutboxRow {
  id: number;
  url: string;
  body: string;
  attempts: number;
  next_at: number;
}

export interface FailedRow {
  id: number;
  url: string;
  event_name: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  failed_at: number;
}

/** What happened to one delivery attempt. */
export type Outcome =
  | { kind: 'delivered'; at: number; attempts: number }
  | { kind: 'failed'; at: number; attempts: number; error: string }
  | { kind: 'retry'; nextAt: number; attempts: number; error: string };

/** A LIKE pattern of a resource path inside a JSON body; the path is made of service ids (no wildcards). */
export const bodyNaming = (resourcePath: string) => `%${resourcePath}"%`;

/** Ids per statement when redelivering, well within both databases' limits on parameters. */
const BATCH = 500;

/**
 * Where pending webhook deliveries wait: the `outbox` table of the service's database (SQLite's,
 * or PostgreSQL's `service_outbox`), where every event is written in the transaction of the change
 * that caused it (`VerificationRepo.enqueueEvent`).
 */
export class DeliveryQueue {
  constructor(private readonly db: Kysely<ServiceTables>) {}

  private pending() {
    return this.db.selectFrom('outbox').where('delivered_at', 'is', null).where('failed_at', 'is', null);
  }

  /** Receiver URLs with deliveries pending. */
  async pendingUrls() {
    const rows = await this.pending().select('url').distinct().execute();
    return rows.map((r) => r.url);
  }

  /** The oldest pending delivery to `url`. */
  async next(url: string): Promise<OutboxRow | undefined> {
    return this.pending()
      .select(['id', 'url', 'body', 'attempts', 'next_at'])
      .where('url', '=', url)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  async settle(id: number, outcome: Outcome) {
    const update = this.db.updateTable('outbox').where('id', '=', id);
    if (outcome.kind === 'delivered') {
      await update.set({ delivered_at: outcome.at, attempts: outcome.attempts, last_error: null }).execute();
    } else if (outcome.kind === 'failed') {
      await update
        .set({ failed_at: outcome.at, attempts: outcome.attempts, last_error: outcome.error })
        .execute();
    } else {
      await update
        .set({ next_at: outcome.nextAt, attempts: outcome.attempts, last_error: outcome.error })
        .execute();
    }
  }

  /** Deliveries given up on, newest first. */
  async failed(limit: number): Promise<FailedRow[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .select(['id', 'url', 'event_name', 'attempts', 'last_error', 'created_at', 'failed_at'])
      .where('failed_at', 'is not', null)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, failed_at: r.failed_at! }));
  }

  /** Puts failed deliveries (the ids, or all) back in their queues with a fresh schedule; how many. */
  async redeliver(ids: number[] | undefined, now: number) {
    const reset = (some?: number[]) =>
      this.db
        .updateTable('outbox')
        .set({ failed_at: null, attempts: 0, next_at: now, last_error: null })
        .where('failed_at', 'is not', null)
        .$if(some !== undefined, (q) => q.where('id', 'in', some!))
        .executeTakeFirst()
        .then((result) => Number(result.numUpdatedRows));
    if (!ids) return reset();
    let count = 0;
    for (let i = 0; i < ids.length; i += BATCH) count += await reset(ids.slice(i, i + BATCH));
    return count;
  }
}
