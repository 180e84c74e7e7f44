import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { verificationEventSchema } from '@/shared/contract/webhooks';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import {
  completeGlobalPassport,
  createVerification,
  startReceiver,
  startService,
  waitFor,
} from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

const secret = 'test-webhook-secret';
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
// The outbox on its default store (SQLite) and on PostgreSQL (DATABASE_URL, a schema of its own).
const database = freshSchemaUrl('idv_outbox');
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await dropSchema(database.schema);
});

describe.each<{ store: string; storeEnv: Record<string, string> }>([
  { store: 'SQLite', storeEnv: {} },
  { store: 'PostgreSQL', storeEnv: { DATABASE_URL: database.url } },
])('verification webhooks, outbox on $store', ({ storeEnv }) => {
  it('delivers every event of a verification, signed with WEBHOOK_SECRET', async () => {
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const svc = await startService({
      ...storeEnv,
      SERVICE_WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
    });
    const v = await createVerification(svc, 'global-passport', { customer: 'c-9' });
    const sent = await completeGlobalPassport(svc, v.identity);
    expect(sent.status).toBe(201);
    await waitFor(() =>
      Promise.resolve(receiver.received.some((r) => r.json.eventName === 'verification_completed')),
    );
    await svc.close();
    const names = receiver.received.map((r) => r.json.eventName);
    expect(names[0]).toBe('verification_started');
    expect(names[1]).toBe('verification_inputs_completed');
    expect(names.at(-1)).toBe('verification_completed');
    expect(names.filter((n) => n === 'step_completed').length).toBeGreaterThanOrEqual(5);
    for (const hook of receiver.received) {
      expect(hook.validSignature).toBe(true);
      const event = verificationEventSchema.parse(hook.json);
      expect(event).toMatchObject({ flowId: 'global-passport', metadata: { customer: 'c-9' } });
      expect(event.resource).toBe(`${svc.url}/v2/verifications/${v.id}`);
      if (event.eventName === 'step_completed')
        expect(event.step).toMatchObject({ id: expect.any(String), status: 200 });
    }
  });

  it('retries a failed delivery and finishes it after a restart of the service', async () => {
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    receiver.state.failNext = 2;
    const dataDir = tempDataDir();
    // Two quick retries, then one two seconds later: the service is stopped before that one.
    const env = {
      ...storeEnv,
      SERVICE_WEBHOOK_URL: 'none',
      WEBHOOK_SECRET: secret,
      WEBHOOK_RETRY_SECONDS: '0.05,0.05,2',
    };
    let svc = await startService(env, dataDir);
    const check = await fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
      method: 'POST',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '529.982.247-25', callbackUrl: receiver.url }),
    });
    expect(check.status).toBe(202);
    await waitFor(() => Promise.resolve(receiver.state.failures === 2));
    await svc.close();
    expect(receiver.received).toHaveLength(0);
    svc = await startService(env, dataDir);
    await waitFor(() => Promise.resolve(receiver.received.length === 1), 10_000);
    expect(receiver.received[0].validSignature).toBe(true);
    expect(receiver.received[0].json).toMatchObject({ eventName: 'credit_check_completed', country: 'br' });
    await svc.close();
  });

  it('does not count a wrong secret as valid (the receiver side of the check)', async () => {
    const receiver = await startReceiver('another-secret');
    receivers.push(receiver);
    const svc = await startService({
      ...storeEnv,
      SERVICE_WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
    });
    const v = await createVerification(svc, 'global-passport');
    await completeGlobalPassport(svc, v.identity);
    await waitFor(() => Promise.resolve(receiver.received.length > 0));
    await svc.close();
    expect(receiver.received.every((r) => !r.validSignature)).toBe(true);
  });

  it('expires a verification whose inputs did not come in time', async () => {
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const svc = await startService({
      ...storeEnv,
      SERVICE_WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
      VERIFICATION_TTL_SECONDS: '0.3',
    });
    const v = await createVerification(svc, 'global-passport');
    const hook = await waitFor(() =>
      Promise.resolve(receiver.received.find((r) => r.json.eventName === 'verification_expired')),
    );
    expect(hook.validSignature).toBe(true);
    const late = await completeGlobalPassport(svc, v.identity);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'verification.expired' });
    await svc.close();
  });
});

describe('outbox on PostgreSQL', () => {
  it('writes events to PostgreSQL, delivers them from there, and erases them with their verification', async () => {
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const dataDir = tempDataDir();
    const svc = await startService(
      { DATABASE_URL: database.url, SERVICE_WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret },
      dataDir,
    );
    const delivered = await createVerification(svc, 'global-passport');
    await completeGlobalPassport(svc, delivered.identity);
    await waitFor(() =>
      Promise.resolve(receiver.received.some((r) => r.json.eventName === 'verification_completed')),
    );
    // A receiver that fails keeps the next verification's events pending (retries 0.2 s apart).
    receiver.state.failNext = 1000;
    const erased = await createVerification(svc, 'global-passport');
    await completeGlobalPassport(svc, erased.identity);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const rowsOf = async (id: string) =>
        (
          await db.query<{ delivered: boolean; event_name: string }>(
            'SELECT delivered_at IS NOT NULL AS delivered, event_name FROM service_outbox WHERE body LIKE $1',
            [`%/v2/verifications/${id}"%`],
          )
        ).rows;
      // Settled once the receiver has answered: a moment after it got the last one.
      await waitFor(async () => (await rowsOf(delivered.id)).every((r) => r.delivered));
      await waitFor(async () =>
        (await rowsOf(erased.id)).some((r) => r.event_name === 'verification_completed'),
      );
      expect((await rowsOf(erased.id)).every((r) => !r.delivered)).toBe(true);

      const erase = await fetch(`${svc.url}/v2/verifications/${erased.id}`, {
        method: 'DELETE',
        headers: svc.auth,
      });
      expect(erase.status).toBe(204);
      // Only the erasure's own event is left (it names no one: metadata null), for the receiver to erase its copy.
      await waitFor(async () => {
        const rows = await rowsOf(erased.id);
        return rows.length === 1 && rows[0].event_name === 'verification_deleted';
      });
    } finally {
      await db.end();
      await svc.close();
    }
    // Nothing of the service's state is kept in DATA_DIR then.
    expect(fs.existsSync(path.join(dataDir, 'service.sqlite'))).toBe(false);
    expect(receiver.received.every((r) => r.validSignature)).toBe(true);
  });
});
