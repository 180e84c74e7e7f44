import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowRequest } from '../../e2e/fixtures/slow-client';
import { startBffAlone } from './testing/harness';

// Issue 21, item 5: a declared body sent at a byte a second held POST /api/verifications and
// send-input open for the 15-minute request timeout, from any number of connections per address.
let bff: Awaited<ReturnType<typeof startBffAlone>>;
let url: string;
beforeAll(async () => {
  bff = await startBffAlone({
    SESSION_SECRET: 'bff-test-session-secret-0123456789',
    SLOW_BODY_GRACE_MS: '1000',
    SLOW_BODY_MIN_BYTES_PER_SECOND: '1024',
    BODIES_PER_ADDRESS: '3',
  });
  url = bff.url;
});
afterAll(() => bff?.stop());

const trickle = (pathname: string, type = 'application/json') =>
  slowRequest(url, pathname, { 'content-type': type, 'content-length': '100000' }, '{"flowId":');

describe('slow bodies on anonymous routes', () => {
  it('are cut once the grace is over and the average rate is under the minimum', async () => {
    for (const pathname of ['/api/verifications', '/api/identities/abc/send-input']) {
      const started = Date.now();
      const slow = trickle(
        pathname,
        pathname.endsWith('send-input') ? 'multipart/form-data; boundary=x' : undefined,
      );
      await slow.closed;
      const took = Date.now() - started;
      expect(took, pathname).toBeGreaterThanOrEqual(900);
      expect(took, pathname).toBeLessThan(5000);
    }
  });

  it('are limited per address: beyond the cap, 429 at once', async () => {
    const held = [1, 2, 3].map(() => trickle('/api/verifications'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = trickle('/api/verifications');
    await extra.closed;
    expect(extra.status()).toBe(429);
    for (const slow of held) slow.destroy();
    await Promise.all(held.map((slow) => slow.closed));
    // Once they are gone, the address may send again (a bad body now: 400, not 429).
    const response = await fetch(`${url}/api/verifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"flowId": 1}',
    });
    expect(response.status).not.toBe(429);
  });
});
