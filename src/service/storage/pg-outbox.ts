import pg from 'pg';
import { migrate } from '@/server-shared/pg-migrate';
import type { Db } from './db';
import { bodyNaming, type DeliveryQueue, type FailedRow, type Outcome, type OutboxRow } from './outbox';

/** The service's PostgreSQL schema, as ordered migrations (index + 1 = version in service_migrations). */
const migrations = [
  `
  CREATE TABLE service_outbox (
    id BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    delivered_at BIGINT,
    failed_at BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX service_outbox_pending ON service_outbox (url, id) WHERE delivered_at IS NULL AND failed_at IS NULL;
  `,
];

async function migrateOn(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await migrate(client, migrations, 'service_migrations', 'idv-service-migrations');
  } finally {
    client.release();
  }
}

interface StagedRow {
  id: number;
  url: string;
  event_name: string;
  body: string;
  attempts: number;
  next_at: number;
  created_at: number;
}

/**
 * The webhook outbox on PostgreSQL (DATABASE_URL). The service's state stays in SQLite, and an
 * event is still written there in the transaction of the change that caused it, so that no event
 * is ever lost between a change and its webhook; from there it is moved to `service_outbox` (then
 * deleted from SQLite) before every delivery round, and delivered from PostgreSQL. A crash between
 * the move and the delete delivers that event twice, which webhook receivers must bear anyway
 * (a redelivery has the same body).
 */
export class PgDeliveryQueue implements DeliveryQueue {
  private readonly pool: pg.Pool;
  private ready: Promise<void> | null = null;
  private moving: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    connectionString: string,
  ) {
    this.pool = new pg.Pool({ connectionString, max: 4 });
    // An idle client whose server went away emits 'error'; the pool replaces it on the next query.
    this.pool.on('error', () => undefined);
  }

  private migrated() {
    this.ready ??= migrateOn(this.pool).catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** Moves the events waiting in SQLite to PostgreSQL, oldest first; one move at a time. */
  private moveStaged() {
    const run = async () => {
      await this.migrated();
      for (;;) {
        const rows = this.db
          .prepare(
            'SELECT id, url, event_name, body, attempts, next_at, created_at FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT 500',
          )
          .all() as StagedRow[];
        if (!rows.length) return;
        await this.pool.query(
          `INSERT INTO service_outbox (url, event_name, body, attempts, next_at, created_at)
             SELECT url, event_name, body, attempts, next_at, created_at
             FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::bigint[], $6::bigint[])
               WITH ORDINALITY AS t(url, event_name, body, attempts, next_at, created_at, n)
             ORDER BY n`,
          [
            rows.map((r) => r.url),
            rows.map((r) => r.event_name),
            rows.map((r) => r.body),
            rows.map((r) => r.attempts),
            rows.map((r) => r.next_at),
            rows.map((r) => r.created_at),
          ],
        );
        this.db
          .prepare('DELETE FROM outbox WHERE id <= ? AND delivered_at IS NULL AND failed_at IS NULL')
          .run(rows.at(-1)!.id);
      }
    };
    const next = this.moving.then(run, run);
    this.moving = next.catch(() => undefined);
    return next;
  }

  async pendingUrls() {
    await this.moveStaged();
    const { rows } = await this.pool.query<{ url: string }>(
      'SELECT DISTINCT url FROM service_outbox WHERE delivered_at IS NULL AND failed_at IS NULL',
    );
    return rows.map((r) => r.url);
  }

  async next(url: string): Promise<OutboxRow | undefined> {
    await this.migrated();
    const { rows } = await this.pool.query<{
      id: string;
      url: string;
      body: string;
      attempts: number;
      next_at: string;
    }>(
      `SELECT id, url, body, attempts, next_at FROM service_outbox
         WHERE url = $1 AND delivered_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT 1`,
      [url],
    );
    const row = rows[0];
    // BIGINT comes back as a string; ids and epoch milliseconds fit a double.
    return row && { ...row, id: Number(row.id), next_at: Number(row.next_at) };
  }

  async settle(id: number, outcome: Outcome) {
    if (outcome.kind === 'delivered') {
      await this.pool.query(
        'UPDATE service_outbox SET delivered_at = $2, attempts = $3, last_error = NULL WHERE id = $1',
        [id, outcome.at, outcome.attempts],
      );
    } else if (outcome.kind === 'failed') {
      await this.pool.query(
        'UPDATE service_outbox SET failed_at = $2, attempts = $3, last_error = $4 WHERE id = $1',
        [id, outcome.at, outcome.attempts, outcome.error],
      );
    } else {
      await this.pool.query(
        'UPDATE service_outbox SET next_at = $2, attempts = $3, last_error = $4 WHERE id = $1',
        [id, outcome.nextAt, outcome.attempts, outcome.error],
      );
    }
  }

  async dropAllFor(resourcePath: string) {
    await this.migrated();
    // The erasure's own verification_deleted may have moved here before this runs: it stays.
    await this.pool.query(
      "DELETE FROM service_outbox WHERE body LIKE $1 AND event_name <> 'verification_deleted'",
      [bodyNaming(resourcePath)],
    );
  }

  async failed(limit: number): Promise<FailedRow[]> {
    await this.migrated();
    const { rows } = await this.pool.query<Record<keyof FailedRow, string | number | null>>(
      `SELECT id, url, event_name, attempts, last_error, created_at, failed_at FROM service_outbox
         WHERE failed_at IS NOT NULL ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    // BIGINT comes back as a string; ids and epoch milliseconds fit a double.
    return rows.map((r) => ({
      id: Number(r.id),
      url: String(r.url),
      event_name: String(r.event_name),
      attempts: Number(r.attempts),
      last_error: r.last_error === null ? null : String(r.last_error),
      created_at: Number(r.created_at),
      failed_at: Number(r.failed_at),
    }));
  }

  async redeliver(ids: number[] | undefined, now: number) {
    await this.migrated();
    const { rowCount } = await this.pool.query(
      `UPDATE service_outbox SET failed_at = NULL, attempts = 0, next_at = $1, last_error = NULL
         WHERE failed_at IS NOT NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
      [now, ids ?? null],
    );
    return rowCount ?? 0;
  }

  async close() {
    await this.moving;
    await this.pool.end();
  }
}
