import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, secrets, startStack, type Stack } from './testing/harness';

// Hardening of the BFF against the real service (issue 9): sessions, headers, limits.
let stack: Stack;
beforeAll(async () => {
  // One proxy in front of the BFF, so that a test can be a person at another address.
  stack = await startStack({ bffEnv: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('capture sessions', () => {
  it('issues a new session on verification creation: a planted cookie never owns the new verification', async () => {
    // The attacker gets a signed session of their own and plants it in the victim's browser.
    const attacker = new Browser(stack.bffUrl);
    expect((await attacker.post(bffPaths.verifications, { flowId: 'global-passport' })).status).toBe(201);
    const planted = attacker.cookies.get('idv_session')!;
    const victim = new Browser(stack.bffUrl);
    victim.cookies.set('idv_session', planted);
    const created = await victim.post(bffPaths.verifications, { flowId: 'global-passport' });
    expect(created.status).toBe(201);
    const { verificationId } = createdVerificationSchema.parse(await created.json());
    expect(victim.cookies.get('idv_session')).not.toBe(planted);
    expect((await victim.fetch(bffPaths.status(verificationId))).status).toBe(200);
    // The planter's copy of the old cookie reads nothing of the victim's verification.
    expect((await attacker.fetch(bffPaths.status(verificationId))).status).toBe(403);
  });
});

describe("the person's address", () => {
  it('reaches the service (X-Forwarded-For from the BFF) for the ip-validation step', async () => {
    const person = new Browser(stack.bffUrl);
    const created = await person.fetch(bffPaths.verifications, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ flowId: 'global-passport' }),
    });
    const { verificationId } = createdVerificationSchema.parse(await created.json());
    const basic = Buffer.from(`${secrets.SERVICE_CLIENT_ID}:${secrets.SERVICE_CLIENT_SECRET}`).toString(
      'base64',
    );
    const token = (await (
      await fetch(`${stack.service.url}/oauth`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
    ).json()) as { access_token: string };
    const data = await fetch(`${stack.service.url}/v2/verifications/${verificationId}`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    const text = await data.text();
    expect(text).toContain('203.0.113.9');
    expect(text).not.toContain('"ip":"127.0.0.1"');
  });
});
