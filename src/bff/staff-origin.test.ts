import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, secrets, startStack, type Stack } from './testing/harness';

// Issue 21, item 9: staff writes from another site are refused on their Origin (or
// Sec-Fetch-Site), not only kept off by the cookie's SameSite=Strict.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const login = (browser: Browser, headers: Record<string, string>) =>
  browser.fetch(bffPaths.staffLogin, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ password: secrets.STAFF_PASSWORD }),
  });

describe('staff writes', () => {
  it('are refused from another origin or site, and taken from the console’s own', async () => {
    const staff = new Browser(stack.bffUrl);
    const evil = { origin: 'https://evil.example' };
    const refused = await login(staff, evil);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('staff.crossOrigin');
    expect((await login(staff, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // The console's own page, and a client that is no browser (no Origin at all).
    expect((await login(staff, { origin: stack.bffUrl, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await login(new Browser(stack.bffUrl), {})).status).toBe(200);

    // Signed in, a cross-origin erasure is refused before it reaches anything; the same request
    // from the console's origin goes on (and finds no such verification).
    for (const spelling of [bffPaths.staffVerification('nope'), '/%61pi/staff/verifications/nope']) {
      const erase = await staff.fetch(spelling, { method: 'DELETE', headers: evil });
      expect(erase.status).toBe(403);
    }
    const own = await staff.fetch(bffPaths.staffVerification('nope'), {
      method: 'DELETE',
      headers: { origin: stack.bffUrl },
    });
    expect(own.status).toBe(404);
    // Reading stays open to the session (a GET changes nothing).
    expect((await staff.fetch(bffPaths.staffVerifications, { headers: evil })).status).toBe(200);
  });
});
