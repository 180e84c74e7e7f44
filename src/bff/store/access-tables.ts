import { toHandoff } from './rows';
import type { HandoffGrant } from './store';
import { SqlTables } from './sql-tables';

/** A claimed grant is kept this long after it expired, for the desktop that follows it. */
const HANDOFF_KEPT_MS = 24 * 3600_000;

/** Who may act: staff sessions, staff login attempts, and the phone handoff's single-use tokens. */
export abstract class AccessTables extends SqlTables {
  async createStaffSession(id: string, expiresAt: Date) {
    await this.db.deleteFrom('staff_sessions').where('expires_at', '<', this.dialect.nowEpoch()).execute();
    await this.db
      .insertInto('staff_sessions')
      .values({ id, expires_at: this.dialect.epoch(expiresAt) })
      .execute();
  }

  async staffSessionExpiry(id: string) {
    const row = await this.db
      .selectFrom('staff_sessions')
      .select('expires_at')
      .where('id', '=', id)
      .where('expires_at', '>', this.dialect.nowEpoch())
      .executeTakeFirst();
    return row ? new Date(row.expires_at) : null;
  }

  async deleteStaffSession(id: string) {
    await this.db.deleteFrom('staff_sessions').where('id', '=', id).execute();
  }

  async countLoginAttempt(key: string, windowMs: number) {
    const d = this.dialect;
    const row = await this.db
      .insertInto('login_attempts')
      .values({ key, count: 1, reset_at: d.nowEpoch(windowMs) })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const over = eb('login_attempts.reset_at', '<=', d.nowEpoch());
          return {
            count: eb
              .case()
              .when(over)
              .then(1)
              .else(eb('login_attempts.count', '+', 1))
              .end(),
            reset_at: eb
              .case()
              .when(over)
              .then(eb.ref('excluded.reset_at'))
              .else(eb.ref('login_attempts.reset_at'))
              .end(),
          };
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    // Now and then, forget the addresses whose window is over.
    if (Math.random() < 0.01)
      await this.db.deleteFrom('login_attempts').where('reset_at', '<=', d.nowEpoch()).execute();
    return row.count;
  }

  async clearLoginAttempts(key: string) {
    await this.db.deleteFrom('login_attempts').where('key', '=', key).execute();
  }

  async createHandoff(tokenHash: string, grant: Omit<HandoffGrant, 'claimedAt'>) {
    const d = this.dialect;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('handoff_tokens').where('expires_at', '<', d.nowEpoch(-HANDOFF_KEPT_MS)).execute();
      // One live link per verification: a new one revokes the unused ones issued before it.
      await trx
        .deleteFrom('handoff_tokens')
        .where('verification_id', '=', grant.verificationId)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('handoff_tokens')
        .values({
          token_hash: tokenHash,
          verification_id: grant.verificationId,
          identity: grant.identity,
          flow_id: grant.flowId,
          flow_name: grant.flowName,
          created_at: d.nowEpoch(),
          expires_at: d.epoch(grant.expiresAt),
          carry: grant.carry,
        })
        .execute();
    });
  }

  async claimHandoff(tokenHash: string, now: Date) {
    const at = this.dialect.epoch(now);
    const row = await this.db
      .updateTable('handoff_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    return row ? toHandoff(row) : null;
  }

  async latestHandoff(verificationId: string) {
    const row = await this.db
      .selectFrom('handoff_tokens')
      .selectAll()
      .where('verification_id', '=', verificationId)
      .orderBy('created_at', 'desc')
      // PostgreSQL's created_at has microseconds; SQLite's milliseconds tie, its rowid does not.
      .$if(this.dialect.name === 'sqlite', (q) => q.orderBy(this.dialect.insertOrder, 'desc'))
      .limit(1)
      .executeTakeFirst();
    return row ? toHandoff(row) : null;
  }

  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.dialect.exclusive(key, fn);
  }
}
