// Two service apps on one PostgreSQL schema (DATABASE_URL), each with a DATA_DIR of its own: a
// verification made on one is the same verification on the other.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import {
  completeGlobalPassport,
  createVerification,
  getVerification,
  startReceiver,
  startService,
  waitFor,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

const database = freshSchemaUrl('idv_service_multi');
let a: RunningService;
let b: RunningService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver('multi-instance-webhook-secret');
  const env = {
    DATABASE_URL: database.url,
    SERVICE_WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: 'multi-instance-webhook-secret',
  };
  // Both start at once on an empty schema: one migrates, the other waits for it.
  [a, b] = await Promise.all([startService(env), startService(env)]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await receiver?.close();
  await dropSchema(database.schema);
});

/** The events the receiver got about one verification, by name. */
const eventsOf = (id: string) =>
  receiver.received.filter((r) => (r.json.resource as string).endsWith(`/v2/verifications/${id}`));

/** The same request to the other instance, with its own token: the answers must agree. */
const on = (svc: RunningService, path: string, init: RequestInit = {}) =>
  fetch(`${svc.url}${path}`, { ...init, headers: { ...svc.auth, ...init.headers } });

describe('two service instances on one PostgreSQL database', () => {
  it('see the same verification, its inputs, processing and media, whichever took them', async () => {
    const v = await createVerification(a, 'global-passport', { campaign: 'multi' });
    // A token of one instance is a token of the other (signed with the shared client secret).
    expect((await fetch(`${b.url}/v2/verifications/${v.id}`, { headers: a.auth })).status).toBe(200);
    const identity = await (await on(b, `/v2/identities/${v.identity}`)).json();
    expect(identity).toMatchObject({
      _id: v.identity,
      verificationId: v.id,
      metadata: { campaign: 'multi' },
    });

    const sent = await completeGlobalPassport(b, v.identity);
    expect(sent.status).toBe(201);
    // Taken by B, processed there; read on A.
    const done = await waitForStatus(a, v.id, ['verified', 'reviewNeeded', 'rejected']);
    // Links name the instance that answers (PUBLIC_URL: the balancer's address, in production).
    const unlinked = (svc: RunningService, data: unknown) => JSON.stringify(data).replaceAll(svc.url, '');
    expect(unlinked(a, done)).toBe(unlinked(b, await getVerification(b, v.id)));
    expect((done.inputs as { status: number }[]).map((i) => i.status)).toEqual([200, 200, 200, 200]);
    // Both instances deliver from the one outbox: every event once, in order, validly signed.
    await waitFor(async () => eventsOf(v.id).some((e) => e.json.eventName === 'verification_completed'));
    const events = eventsOf(v.id);
    expect(new Set(events.map((e) => e.body)).size).toBe(events.length);
    expect(events[0].json.eventName).toBe('verification_started');
    expect(events.at(-1)?.json.eventName).toBe('verification_completed');
    expect(events.every((e) => e.validSignature)).toBe(true);

    // Its media, stored by B, are served by A: the same bytes.
    const mediaIds = [
      ...new Set([...JSON.stringify(done).matchAll(/\/media\/([0-9a-f]{32})/g)].map((m) => m[1])),
    ];
    expect(mediaIds.length).toBeGreaterThanOrEqual(3);
    for (const id of mediaIds) {
      const [fromA, fromB] = await Promise.all([on(a, `/media/${id}`), on(b, `/media/${id}`)]);
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      expect(fromA.headers.get('content-type')).toBe(fromB.headers.get('content-type'));
      expect(Buffer.from(await fromA.arrayBuffer()).equals(Buffer.from(await fromB.arrayBuffer()))).toBe(
        true,
      );
    }

    // Erased on A: the media go too, for both.
    expect((await on(a, `/v2/verifications/${v.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await on(b, `/media/${mediaIds[0]}`)).status).toBe(404);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT 1 FROM service_media_chunks WHERE media_id = ANY($1)', [
        mediaIds,
      ]);
      expect(rows).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it('a re-verification made on one instance is the identity newest verification on the other', async () => {
    const first = await createVerification(a, 'global-passport');
    const again = await on(b, '/v2/verifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'global-passport', identityId: first.identity }),
    });
    const second = (await again.json()) as { id: string };
    const identity = (await (await on(a, `/v2/identities/${first.identity}`)).json()) as {
      verificationId: string;
    };
    expect(identity.verificationId).toBe(second.id);
  });

  it('an erasure on one instance is seen by the other', async () => {
    const v = await createVerification(a, 'global-passport');
    expect((await on(b, `/v2/verifications/${v.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await on(a, `/v2/verifications/${v.id}`)).status).toBe(404);
  });

  it('erases once when both instances are asked at once, with one verification_deleted', async () => {
    const v = await createVerification(a, 'global-passport');
    const answers = await Promise.all(
      [a, b].map((svc) => on(svc, `/v2/verifications/${v.id}`, { method: 'DELETE' })),
    );
    // A request that found the verification before the other erased it still answers 204.
    expect(answers.every((r) => r.status === 204 || r.status === 404)).toBe(true);
    await waitFor(async () => eventsOf(v.id).some((e) => e.json.eventName === 'verification_deleted'));
    // Any second event would have been written with the first, and delivered right after it.
    await waitFor(async () => {
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        return (await db.query('SELECT 1 FROM service_outbox WHERE delivered_at IS NULL')).rows.length === 0;
      } finally {
        await db.end();
      }
    });
    expect(eventsOf(v.id).map((e) => e.json.eventName)).toEqual(['verification_deleted']);
  });

  it('deliver an event another instance wrote and never delivered (it died), with no new event of their own', async () => {
    // As a killed instance leaves it: written in its change's transaction, not yet delivered.
    const body = JSON.stringify({
      eventName: 'verification_updated',
      resource: `${a.url}/v2/verifications/left-by-a-dead-instance`,
    });
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query(
        'INSERT INTO service_outbox (url, event_name, body, next_at, created_at) VALUES ($1, $2, $3, $4, $4)',
        [receiver.url, 'verification_updated', body, Date.now()],
      );
    } finally {
      await db.end();
    }
    // A and B are idle: only their periodic look finds it.
    await waitFor(async () => receiver.received.some((r) => r.body === body));
  });

  // Every input, twice at once: the first to take the identity completes the verification, the
  // other then finds its inputs locked. Run side by side, both would be accepted.
  const sendTwiceAtOnce = async (first: RunningService, second: RunningService) => {
    const v = await createVerification(first, 'global-passport');
    const answers = await Promise.all([
      completeGlobalPassport(first, v.identity),
      completeGlobalPassport(second, v.identity),
    ]);
    return answers.map((r) => [r.status, (r.body as { code?: string }).code ?? null]).sort();
  };

  it('run concurrent send-inputs of one identity one after the other, as one instance does', async () => {
    const one = await startService();
    try {
      const alone = await sendTwiceAtOnce(one, one);
      expect(alone).toEqual([
        [201, null],
        [409, 'input.locked'],
      ]);
      expect(await sendTwiceAtOnce(a, b)).toEqual(alone);
    } finally {
      await one.close();
    }
  });
});
