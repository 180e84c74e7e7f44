import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowRequest } from '../../../e2e/fixtures/slow-client';
import { startService, type RunningService } from '../testing/harness';

// Issue 21: the service decides its path rules (bearer token, open routes, extensions) on the
// route the router matched, so percent-encoded spellings meet the same rules as plain ones.
let svc: RunningService;
let hosted: RunningService;
beforeAll(async () => {
  svc = await startService({ OPEN_BODY_TIMEOUT_MS: '300' });
  hosted = await startService({ SERVICE_EXTENSIONS: 'off' });
});
afterAll(async () => {
  await svc?.close();
  await hosted?.close();
});

describe('percent-encoded paths at the service', () => {
  it('need a bearer token on every spelling of a secured route', async () => {
    for (const spelling of ['/v%32/verifications', '/%762/verifications', '/v2/verific%61tions']) {
      const body = JSON.stringify({ flowId: 'global-passport' });
      const headers = { 'content-type': 'application/json' };
      expect((await fetch(`${svc.url}${spelling}`, { method: 'POST', headers, body })).status).toBe(401);
      const created = await fetch(`${svc.url}${spelling}`, {
        method: 'POST',
        headers: { ...headers, ...svc.auth },
        body,
      });
      expect(created.status).toBe(200);
    }
    expect((await fetch(`${svc.url}/v%32/webhooks/failed`)).status).toBe(401);
  });

  it('serve no extension route with the extensions off', async () => {
    for (const spelling of ['/v%32/flows', '/v2/fl%6fws', '/v2/webhooks/f%61iled']) {
      expect((await fetch(`${hosted.url}${spelling}`, { headers: hosted.auth })).status).toBe(404);
    }
  });

  it('hold an encoded spelling of /oauth to the open routes’ body deadline', async () => {
    const slow = slowRequest(svc.url, '/%6fauth', {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '1000',
    });
    const started = Date.now();
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
