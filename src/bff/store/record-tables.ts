import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import { toCreditCheck, toReview } from './rows';
import type { StoredReview } from './store';
import { EventTables } from './event-tables';
import { BATCH, json } from './sql-tables';

/** What staff and the services add beside a verification: reviewers' decisions, credit checks, media links. */
export abstract class RecordTables extends EventTables {
  async recordReview(r: StoredReview) {
    await this.db
      .insertInto('reviews')
      .values({
        id: r.id,
        verification_id: r.verificationId,
        decision: r.decision,
        reason: r.reason,
        note: r.note,
        reviewer: r.reviewer,
        decided_at: r.decidedAt,
      })
      .execute();
  }

  async deleteReview(id: string) {
    await this.db.deleteFrom('reviews').where('id', '=', id).execute();
  }

  async reviewsOf(verificationId: string) {
    // The insert order breaks ties between decisions of the same millisecond: the later insert is newer.
    const rows = await this.db
      .selectFrom('reviews')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('decided_at', 'desc')
      .orderBy(this.dialect.insertOrder, 'desc')
      .execute();
    return rows.map(toReview);
  }

  async createCreditCheck(record: CreditCheckRecord) {
    // A result that arrived before the service's answer keeps its status, but gains the request.
    const row = await this.db
      .insertInto('credit_checks')
      .values({
        id: record.id,
        country: record.country,
        request: json(record.request)!,
        status: record.status,
        result: json(record.result),
        error: record.error,
        created_at: record.createdAt,
        completed_at: record.completedAt,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          request: eb.ref('excluded.request'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCreditCheck(row);
  }

  async completeCreditCheck(
    id: string,
    v: Pick<CreditCheckRecord, 'country' | 'request' | 'status' | 'result' | 'error' | 'completedAt'>,
  ) {
    const row = await this.db
      .insertInto('credit_checks')
      .values({
        id,
        country: v.country,
        request: json(v.request)!,
        status: v.status,
        result: json(v.result),
        error: v.error,
        created_at: v.completedAt!,
        completed_at: v.completedAt,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          result: eb.ref('excluded.result'),
          error: eb.ref('excluded.error'),
          completed_at: eb.ref('excluded.completed_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCreditCheck(row);
  }

  async listCreditChecks() {
    const rows = await this.db
      .selectFrom('credit_checks')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute();
    return rows.map(toCreditCheck);
  }

  async rememberMedia(entries: { id: string; url: string }[]) {
    // One row per id (the last link wins): an upsert may not touch the same row twice.
    const rows = [...new Map(entries.map((e) => [e.id, e.url]))].map(([id, url]) => ({ id, url }));
    for (let i = 0; i < rows.length; i += BATCH)
      await this.db
        .insertInto('media')
        .values(rows.slice(i, i + BATCH))
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ url: eb.ref('excluded.url') })))
        .execute();
  }

  async mediaUrl(id: string) {
    const row = await this.db.selectFrom('media').select('url').where('id', '=', id).executeTakeFirst();
    return row?.url ?? null;
  }
}
