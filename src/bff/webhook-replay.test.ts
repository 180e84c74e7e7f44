import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bffErrorSchema, createdVerificationSchema, storedEventSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, eventually, sign, stackWithStaff } from './testing/harness';

// Issue 34, item 3: a signed webhook replayed after an erasure brings nothing back, and a signed
// body whose timestamp is far from now (a body dated 2001) is refused.
const NAME = 'REPLAYED SPECIMEN';

const file = stackWithStaff();

const body = (verificationId: string, timestamp = new Date().toISOString()) =>
  JSON.stringify({
    eventName: 'verification_started',
    resource: `${file.stack.service.url}/v2/verifications/${verificationId}`,
    flowId: 'global-passport',
    timestamp,
    metadata: { fullName: NAME },
  });

const post = (text: string) =>
  fetch(`${file.stack.bffUrl}/webhooks/verification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(text) },
    body: text,
  });

/** Rows of the BFF's own SQLite file that name the verification or carry the person's name. */
function rowsAbout(verificationId: string) {
  const db = new Database(path.join(file.stack.dataDir, 'bff', 'bff.sqlite'), { readonly: true });
  try {
    const count = (sql: string, ...values: string[]) => (db.prepare(sql).get(...values) as { n: number }).n;
    return {
      verifications: count('SELECT COUNT(*) AS n FROM verifications WHERE id = ?', verificationId),
      events: count(
        'SELECT COUNT(*) AS n FROM events WHERE verification_id = ? OR body LIKE ?',
        verificationId,
        `%${NAME}%`,
      ),
    };
  } finally {
    db.close();
  }
}

describe('a replayed webhook', () => {
  it('brings nothing of an erased verification back, the service away', async () => {
    const person = new Browser(file.stack.bffUrl);
    const { verificationId } = createdVerificationSchema.parse(
      await (await person.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    const signed = body(verificationId);
    expect((await post(signed)).status).toBe(200);
    await eventually(async () => {
      const detail = await file.staff.fetch(bffPaths.staffVerification(verificationId));
      if (detail.status !== 200) return undefined;
      const { events } = (await detail.json()) as { events: unknown[] };
      return events.map((e) => storedEventSchema.parse(e)).length ? true : undefined;
    });
    expect(
      (await file.staff.fetch(bffPaths.staffVerification(verificationId), { method: 'DELETE' })).status,
    ).toBe(204);
    expect(rowsAbout(verificationId)).toEqual({ verifications: 0, events: 0 });

    await file.stack.service.stop();
    try {
      const replayed = await post(signed);
      expect(replayed.status).toBe(200);
      expect(await replayed.json()).toMatchObject({ received: true, erased: true });
      // Answered without storing anything: no row to wait for.
      expect(rowsAbout(verificationId)).toEqual({ verifications: 0, events: 0 });
      const list = await (await file.staff.fetch(bffPaths.staffVerifications)).text();
      expect(list).not.toContain(verificationId);
    } finally {
      await file.stack.service.start();
    }
  }, 60_000);

  it('is refused when its signed timestamp is far in the past or in the future', async () => {
    for (const timestamp of [
      '2001-09-09T01:46:40.000Z',
      new Date(Date.now() - 2 * 3600_000).toISOString(),
      new Date(Date.now() + 3600_000).toISOString(),
      'not a time',
    ]) {
      const id = `stale${Date.parse(timestamp) || 0}`.replace(/-/g, 'm');
      const refused = await post(body(id, timestamp));
      expect(refused.status, timestamp).toBe(400);
      expect(bffErrorSchema.parse(await refused.json()).code).toBe('webhook.stale');
      expect(rowsAbout(id)).toEqual({ verifications: 0, events: 0 });
    }
    // A sender's clock a little ahead is fine.
    const ahead = await post(body('aheadbyaminute', new Date(Date.now() + 60_000).toISOString()));
    expect(ahead.status).toBe(200);
  }, 30_000);

  it('of a credit-check result is refused when its signed timestamp is old; one without (the hosted shape) is taken', async () => {
    const result = (id: string, timestamp?: string) =>
      JSON.stringify({
        eventName: 'credit_check_completed',
        id,
        country: 'ar',
        request: { dni: '12345678', fullName: NAME },
        result: { synthetic: true },
        ...(timestamp ? { timestamp } : {}),
      });
    const postResult = (text: string) =>
      fetch(`${file.stack.bffUrl}/webhooks/credit-check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': sign(text) },
        body: text,
      });
    const stale = await postResult(result('cc-stale', '2001-09-09T01:46:40.000Z'));
    expect(stale.status).toBe(400);
    expect(bffErrorSchema.parse(await stale.json()).code).toBe('webhook.stale');
    expect((await postResult(result('cc-now', new Date().toISOString()))).status).toBe(200);
    expect((await postResult(result('cc-hosted'))).status).toBe(200);
  }, 30_000);
});
