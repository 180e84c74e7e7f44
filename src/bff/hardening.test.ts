import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, startStack, type Stack } from './testing/harness';

// Hardening of the BFF against the real service (issue 9): sessions, headers, limits.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
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
