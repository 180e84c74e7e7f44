import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowRequest } from '../../e2e/fixtures/slow-client';
import { sign, startBffAlone } from './testing/harness';

// The routes anyone may call (webhooks, staff sign-in, health) against slow and oversized bodies.
let url: string;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ url, stop } = await startBffAlone({
    OPEN_BODY_TIMEOUT_MS: '300',
    OPEN_MAX_CONCURRENT: '4',
    RATE_LIMIT_MAX: '5',
  }));
});
afterAll(() => stop?.());

const slowWebhook = (headers: Record<string, string> = {}, address?: string) =>
  slowRequest(
    url,
    '/webhooks/verification',
    {
      'content-type': 'application/json',
      'content-length': '100000',
      'x-signature': 'a'.repeat(64),
      ...headers,
    },
    'x',
    address,
  );

describe('open routes', () => {
  it('closes a webhook whose body does not arrive in time', async () => {
    const slow = slowWebhook();
    await slow.closed;
    expect(slow.status()).not.toBe(200);
  });

  it('refuses a webhook without a signature before reading its body', async () => {
    const unsigned = slowWebhook({ 'x-signature': '' });
    await unsigned.closed;
    expect(unsigned.status()).toBe(401);
  });

  it('refuses a webhook body past 64 KB as it streams, and a wrong signature', async () => {
    const big = '{"a":"' + 'x'.repeat(100_000) + '"}';
    const tooBig = await fetch(`${url}/webhooks/verification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(big) },
      body: big,
    }).catch(() => null);
    // The answer is 413, or the connection is closed before the client has sent everything.
    if (tooBig) expect(tooBig.status).toBe(413);
    const wrong = await fetch(`${url}/webhooks/verification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign('other') },
      body: '{"eventName":"x"}',
    });
    expect(wrong.status).toBe(401);
  });

  it('keeps health probes outside the user rate limit, and staff answers out of caches', async () => {
    // RATE_LIMIT_MAX is 5 here: health is polled far more often than that.
    for (let i = 0; i < 12; i++) expect((await fetch(`${url}/api/health`)).status).not.toBe(429);
    const staff = await fetch(`${url}/api/staff/me`);
    expect(staff.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 beyond the cap of open requests under way', async () => {
    // Four clients: one alone holds a quarter of the slots at most.
    const held = [2, 3, 4, 5].map((n) => slowWebhook({}, `127.0.0.${n}`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = slowWebhook({}, '127.0.0.6');
    await extra.closed;
    expect(extra.status()).toBe(503);
    await Promise.all(held.map((slow) => slow.closed));
  });
});

// Issue 34, item 5: the slots of the open routes per client address, per route, and the
// service's own webhooks apart from anonymous traffic.
describe('open-route slots', () => {
  let bff: Awaited<ReturnType<typeof startBffAlone>>;
  const held: ReturnType<typeof slowRequest>[] = [];
  beforeAll(async () => {
    bff = await startBffAlone({ OPEN_BODY_TIMEOUT_MS: '60000', OPEN_MAX_CONCURRENT: '4' });
  });
  afterAll(async () => {
    for (const slow of held) slow.destroy();
    await bff?.stop();
  });

  const slowFrom = (address: string) => {
    const slow = slowRequest(
      bff.url,
      '/webhooks/verification',
      { 'content-type': 'application/json', 'content-length': '100000', 'x-signature': 'a'.repeat(64) },
      'x',
      address,
    );
    held.push(slow);
    return slow;
  };
  /** A slot held by `address`: once one is, its next slow webhook is refused at once. */
  const holdOne = async (address: string) => {
    slowFrom(address);
    const probe = slowFrom(address);
    await probe.closed;
    expect(probe.status()).toBe(503);
  };
  const signedWebhook = () => {
    const body = JSON.stringify({
      eventName: 'verification_started',
      resource: `${bff.url}/v2/verifications/slotsverification0001`,
      flowId: 'global-passport',
      timestamp: new Date().toISOString(),
      metadata: {},
    });
    return fetch(`${bff.url}/webhooks/verification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
      body,
    });
  };
  const health = async () => {
    const response = await fetch(`${bff.url}/api/health`);
    // No service behind this BFF: 503, but its own answer, never a 500 of the error's serialization.
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ok: false, upstream: 'unavailable' });
  };

  it('lets one client take a quarter of them, not every one', async () => {
    const mine = [1, 2, 3, 4].map(() => slowFrom('127.0.0.2'));
    // Three of its four are refused at once; the fourth holds a slot.
    await new Promise<void>((resolve) => {
      let refused = 0;
      for (const slow of mine) void slow.closed.then(() => ++refused === 3 && resolve());
    });
    expect(mine.filter((slow) => slow.status() === 503)).toHaveLength(3);
    const login = await fetch(`${bff.url}/api/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'wrong' }),
    });
    expect(login.status).toBe(401);
    expect((await signedWebhook()).status).toBe(200);
    await health();
  });

  it("keeps the service's webhooks apart from the anonymous ones that fill the slots", async () => {
    // 127.0.0.1 sent a validly signed webhook and 127.0.0.2 holds a slot (above); three more
    // clients take the other anonymous slots.
    for (const n of [3, 4, 5]) await holdOne(`127.0.0.${n}`);
    const refused = slowFrom('127.0.0.6');
    await refused.closed;
    expect(refused.status()).toBe(503);
    expect((await signedWebhook()).status).toBe(200);
    expect((await signedWebhook()).status).toBe(200);
    await health();
  });
});
