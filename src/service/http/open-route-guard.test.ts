import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowRequest } from '../../../e2e/fixtures/slow-client';
import { startService, type RunningService } from '../testing/harness';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ OPEN_BODY_TIMEOUT_MS: '300', OPEN_MAX_CONCURRENT: '4' });
});
afterAll(() => svc.close());

const slowOauth = () =>
  slowRequest(svc.url, '/oauth', {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': '1000',
  });

describe('/oauth against slow bodies', () => {
  it('closes a connection whose body does not arrive in time', async () => {
    const slow = slowOauth();
    await slow.closed;
    // A token is still issued to a client that sends its body.
    const token = await fetch(`${svc.url}/oauth`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${svc.config.clientId}:${svc.config.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
  });

  it('answers 503 beyond the cap of requests under way, and takes new ones once they are gone', async () => {
    const held = Array.from({ length: 4 }, slowOauth);
    // Wait until the four are counted (each has sent its headers).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = slowOauth();
    await extra.closed;
    expect(extra.status()).toBe(503);
    await Promise.all(held.map((slow) => slow.closed));
    const after = slowOauth();
    await after.closed;
    expect(after.status()).not.toBe(503);
  });
});
