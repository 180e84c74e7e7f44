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

const slowWebhook = (headers: Record<string, string> = {}) =>
  slowRequest(url, '/webhooks/verification', {
    'content-type': 'application/json',
    'content-length': '100000',
    'x-signature': 'a'.repeat(64),
    ...headers,
  });

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
    const held = Array.from({ length: 4 }, () => slowWebhook());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = slowWebhook();
    await extra.closed;
    expect(extra.status()).toBe(503);
    await Promise.all(held.map((slow) => slow.closed));
  });
});
