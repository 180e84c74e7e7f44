import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, eventually, serviceToken, sign, stackWithStaff } from './testing/harness';

// Issue 34, item 4: a signed `verification_deleted` erases the BFF's copy only when the service
// confirms that the verification is gone (404 for its id).
const file = stackWithStaff();

async function postEvent(verificationId: string, eventName: string) {
  const body = JSON.stringify({
    eventName,
    resource: `${file.stack.service.url}/v2/verifications/${verificationId}`,
    flowId: 'global-passport',
    timestamp: new Date().toISOString(),
    metadata: eventName === 'verification_deleted' ? null : {},
  });
  const response = await fetch(`${file.stack.bffUrl}/webhooks/verification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
    body,
  });
  expect(response.status).toBe(200);
}

/** What the BFF's SQLite file holds of a verification, and whether its deletion event was processed. */
function stored(verificationId: string) {
  const db = new Database(path.join(file.stack.dataDir, 'bff', 'bff.sqlite'), { readonly: true });
  try {
    const one = (sql: string) => db.prepare(sql).get(verificationId) as { n: number };
    return {
      verification: one('SELECT COUNT(*) AS n FROM verifications WHERE id = ?').n,
      deletionProcessed: one(
        "SELECT COUNT(*) AS n FROM events WHERE verification_id = ? AND event_name = 'verification_deleted' AND processed_at IS NOT NULL",
      ).n,
      erased: one('SELECT COUNT(*) AS n FROM erased_verifications WHERE id = ?').n,
    };
  } finally {
    db.close();
  }
}

async function created() {
  const person = new Browser(file.stack.bffUrl);
  return createdVerificationSchema.parse(
    await (await person.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
  ).verificationId;
}

describe('verification_deleted', () => {
  it('keeps the copy of a verification the service still has', async () => {
    const id = await created();
    await postEvent(id, 'verification_started');
    await postEvent(id, 'verification_deleted');
    // Processed (kept, marked done) or, as before, the copy erased: either ends the wait.
    const after = await eventually(async () => {
      const now = stored(id);
      return now.deletionProcessed || !now.verification ? now : undefined;
    });
    expect(after).toEqual({ verification: 1, deletionProcessed: 1, erased: 0 });
    expect((await file.staff.fetch(bffPaths.staffVerification(id))).status).toBe(200);
    // The staff erasure still finds it.
    expect((await file.staff.fetch(bffPaths.staffVerification(id), { method: 'DELETE' })).status).toBe(204);
  }, 60_000);

  it('erases the copy once the service answers 404 for the id', async () => {
    const id = await created();
    const erased = await fetch(`${file.stack.service.url}/v2/verifications/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await serviceToken(file.stack.service.url)}` },
    });
    expect(erased.status).toBe(204);
    await postEvent(id, 'verification_deleted');
    expect(await eventually(async () => (stored(id).erased ? stored(id) : undefined))).toEqual({
      verification: 0,
      deletionProcessed: 0,
      erased: 1,
    });
  }, 60_000);
});
