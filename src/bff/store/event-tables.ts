import { randomUUID } from 'node:crypto';
import { toEvent } from './rows';
import type { NewEvent, PendingEvent } from './store';
import { AccessTables } from './access-tables';

/** The webhooks received (verification and credit-check events), once per body, and their processing. */
export abstract class EventTables extends AccessTables {
  async recordEvent(e: NewEvent) {
    const inserted = await this.db
      .insertInto('events')
      .values({
        id: randomUUID(),
        kind: e.kind,
        event_name: e.eventName,
        body_hash: e.bodyHash,
        body: e.rawBody,
        verification_id: e.verificationId,
        credit_check_id: e.creditCheckId,
        received_at: this.dialect.now(),
      })
      .onConflict((oc) => oc.column('body_hash').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { event: toEvent(inserted), duplicate: false };
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('body_hash', '=', e.bodyHash)
      .executeTakeFirstOrThrow();
    return { event: toEvent(row), duplicate: true };
  }

  async markEventProcessed(id: string) {
    await this.db
      .updateTable('events')
      .set({ processed_at: this.dialect.now() })
      .where('id', '=', id)
      .execute();
  }

  async unprocessedEvents(): Promise<PendingEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('processed_at', 'is', null)
      .orderBy('received_at')
      .orderBy(this.dialect.insertOrder)
      .execute();
    return rows.map((row) => ({
      event: toEvent(row),
      verificationId: row.verification_id,
      creditCheckId: row.credit_check_id,
    }));
  }

  async eventsOf(verificationId: string) {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('received_at')
      .orderBy(this.dialect.insertOrder)
      .execute();
    return rows.map(toEvent);
  }
}
