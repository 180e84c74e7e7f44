import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaUrl } from '../../../../e2e/fixtures/test-database';
import { failedDeliveryListSchema } from '@/shared/contract/webhook-deliveries';
import { startReceiver, startService, waitFor } from '../../testing/harness';

// The outbox on SQLite, and on PostgreSQL (DATABASE_URL, a schema of its own) where deliveries
// are settled in PostgreSQL only.
const database = freshSchemaUrl('idv_webhooks');
afterAll(() => dropSchema(database.schema));

describe.each([
  { store: 'SQLite', env: {} as Record<string, string> },
  { store: 'PostgreSQL', env: { DATABASE_URL: database.url } },
])('webhook catch-up (ext), outbox on $store', ({ env }) => {
  it('keeps abandoned deliveries visible and sends them again on demand, exactly once', async () => {
    const receiver = await startReceiver('s');
    // The receiver is away for the whole retry schedule (two quick retries).
    receiver.state.failNext = 3;
    const svc = await startService({ WEBHOOK_SECRET: 's', WEBHOOK_RETRY_SECONDS: '0.05,0.05', ...env });
    try {
      const check = await fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          cpf: '529.982.247-25',
          callbackUrl: receiver.url.replace('//', '//user:pw@'),
        }),
      });
      expect(check.status).toBe(202);
      const failed = await waitFor(async () => {
        const list = failedDeliveryListSchema.parse(
          await (await fetch(`${svc.url}/v2/webhooks/failed`, { headers: svc.auth })).json(),
        );
        return list.length === 1 ? list : null;
      });
      expect(failed[0]).toMatchObject({
        eventName: 'credit_check_completed',
        attempts: 3,
        lastError: 'HTTP 500',
      });
      expect(failed[0].url).not.toContain('pw');
      expect(receiver.received).toHaveLength(0);
      // The receiver is back: one call sends it again.
      const redeliver = await fetch(`${svc.url}/v2/webhooks/failed/redeliver`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(await redeliver.json()).toEqual({ redelivered: 1 });
      await waitFor(() => Promise.resolve(receiver.received.length === 1));
      const after = await (await fetch(`${svc.url}/v2/webhooks/failed`, { headers: svc.auth })).json();
      expect(after).toEqual([]);
      expect(receiver.received[0].validSignature).toBe(true);
    } finally {
      await svc.close();
      await receiver.close();
    }
  });
});
