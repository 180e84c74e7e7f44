import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, secrets, startStack, type Stack } from './testing/harness';

// Issue 21: every path rule is decided on the route the router matched, so a percent-encoded
// spelling of a path (`/%61pi/flows` is `/api/flows` to the router) meets the same rules.
let stack: Stack;
const LIMIT = 6;
beforeAll(async () => {
  // One proxy hop, so each test is a person at an address of its own (the limit is per address).
  stack = await startStack({ bffEnv: { TRUST_PROXY: '1', RATE_LIMIT_MAX: String(LIMIT) } });
});
afterAll(async () => {
  await stack?.stop();
});

const from = (address: string, init: RequestInit = {}) => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': address },
});

describe('percent-encoded paths', () => {
  it('count against the rate limit, whatever the spelling', async () => {
    const browser = new Browser(stack.bffUrl);
    const spellings = ['/api/flows', '/%61pi/flows', '/api/%66lows', '/%61%70%69/flows'];
    const statuses: number[] = [];
    for (let i = 0; i < 3 * LIMIT; i++) {
      const response = await browser.fetch(spellings[i % spellings.length], from('198.51.100.1'));
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses.slice(LIMIT)).toEqual(Array(2 * LIMIT).fill(429));
  });

  it('create no verification while the address is limited', async () => {
    const browser = new Browser(stack.bffUrl);
    for (let i = 0; i < LIMIT; i++)
      await (await browser.fetch('/api/flows', from('198.51.100.2'))).arrayBuffer();
    for (const spelling of ['/%61pi/verifications', '/api/verific%61tions']) {
      const response = await browser.fetch(
        spelling,
        from('198.51.100.2', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ flowId: 'global-passport' }),
        }),
      );
      expect(response.status).toBe(429);
    }
  });

  it('keep health probes out of the limit', async () => {
    const browser = new Browser(stack.bffUrl);
    for (let i = 0; i < 2 * LIMIT; i++) {
      const response = await browser.fetch(i % 2 ? '/%61pi/health' : '/api/he%61lth', from('198.51.100.3'));
      await response.arrayBuffer();
      expect(response.status).not.toBe(429);
    }
  });

  it('need a staff session and answer staff data with no-store', async () => {
    const anonymous = await fetch(`${stack.bffUrl}/%61pi/staff/verifications`, from('198.51.100.4'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const staff = new Browser(stack.bffUrl);
    const login = await staff.fetch(
      bffPaths.staffLogin,
      from('198.51.100.5', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: secrets.STAFF_PASSWORD }),
      }),
    );
    expect(login.status).toBe(200);
    for (const spelling of ['/%61pi/staff/verifications', '/api/st%61ff/verifications']) {
      const response = await staff.fetch(spelling, from('198.51.100.5'));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});
