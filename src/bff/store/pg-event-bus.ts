import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { staffStreamEventSchema, type StaffStreamEvent } from '@/shared/contract/bff-api';
import type { EventBus } from './event-bus';

/**
 * Notifications are per database, not per schema: the channel is named after the schema, so that
 * deployments (or test runs) in different schemas of one database never hear each other.
 */
const channelOf = (schema: string) =>
  `idv_staff_events_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
/** NOTIFY refuses payloads of 8000 bytes or more; bigger events travel by reference. */
const MAX_PAYLOAD = 7900;

/**
 * The staff event stream across instances through PostgreSQL LISTEN/NOTIFY: every instance
 * listens on one connection of its own, and publishes through the store's pool. An event too big
 * for a notification is written to `stream_events` and the notification carries its number.
 * Notifications are not kept: a listener that was disconnected misses what was sent meanwhile
 * (the console reloads its lists when its stream reconnects).
 */
export class PgEventBus implements EventBus {
  private listener: pg.Client | null = null;
  private deliver: ((event: StaffStreamEvent) => void) | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Publishes go one after the other, so that this instance's events arrive in the order sent. */
  private queue: Promise<void> = Promise.resolve();
  private incoming: Promise<void> = Promise.resolve();
  private channel = '';

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(deliver: (event: StaffStreamEvent) => void) {
    this.deliver = deliver;
    const { rows } = await this.pool.query<{ schema: string }>('SELECT current_schema() AS schema');
    this.channel = channelOf(rows[0].schema);
    await this.connect();
  }

  private async connect() {
    const client = new pg.Client({ connectionString: this.connectionString });
    // One at a time: an event fetched by reference must not be overtaken by the small one after it.
    client.on('notification', (message) => {
      this.incoming = this.incoming.then(() => this.received(message.payload));
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'staff event listener lost its database connection');
      this.reconnectLater(client);
    });
    client.on('end', () => this.reconnectLater(client));
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.listener = client;
  }

  private reconnectLater(client: pg.Client) {
    if (this.closed || this.listener !== client || this.retry) return;
    this.listener = null;
    void client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((err: unknown) => {
        this.log.warn({ err }, 'staff event listener could not reconnect');
        this.listener = client;
        this.reconnectLater(client);
      });
    }, 1000);
  }

  private async received(payload: string | undefined) {
    if (!payload || !this.deliver) return;
    try {
      let message = JSON.parse(payload) as unknown;
      if (typeof message === 'object' && message !== null && 'ref' in message) {
        const { rows } = await this.pool.query<{ body: string }>(
          'SELECT body FROM stream_events WHERE seq = $1',
          [Number(message.ref)],
        );
        if (!rows[0]) return;
        message = JSON.parse(rows[0].body);
      }
      const event = staffStreamEventSchema.safeParse(message);
      if (event.success) this.deliver(event.data);
    } catch (err) {
      this.log.warn({ err }, 'staff event not delivered');
    }
  }

  publish(event: StaffStreamEvent) {
    this.queue = this.queue
      .then(() => this.send(event))
      .catch((err: unknown) => this.log.warn({ err }, 'staff event not published'));
  }

  private async send(event: StaffStreamEvent) {
    const body = JSON.stringify(event);
    if (Buffer.byteLength(body) <= MAX_PAYLOAD) {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, body]);
      return;
    }
    const { rows } = await this.pool.query<{ seq: string }>(
      'INSERT INTO stream_events (body) VALUES ($1) RETURNING seq',
      [body],
    );
    await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify({ ref: rows[0].seq })]);
    // The listeners read it within milliseconds; a minute is plenty.
    await this.pool.query("DELETE FROM stream_events WHERE created_at < now() - interval '1 minute'");
  }

  async close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.queue;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }
}
