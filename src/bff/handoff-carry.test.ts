import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bffErrorSchema,
  claimedHandoffSchema,
  createdVerificationSchema,
  handoffSchema,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, startStack, type Stack } from './testing/harness';

// A handoff carries the computer's consent and the documents chosen there to the phone; the BFF
// takes only what the flow offers at each step.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const consentedAt = '2026-11-26T10:00:00.000Z';

async function verificationOn(computer: Browser) {
  const res = await computer.post(bffPaths.verifications, { flowId: 'global-passport' });
  expect(res.status).toBe(201);
  return createdVerificationSchema.parse(await res.json());
}

describe('the handoff carries the consent and the documents chosen', () => {
  it('hands them to the phone that claims the link', async () => {
    const computer = new Browser(stack.bffUrl);
    const { verificationId } = await verificationOn(computer);
    const carry = {
      consentedAt,
      documents: [
        { group: 0, type: 'passport', country: 'MX' },
        { group: 1, type: 'proof-of-residency', country: 'GB' },
      ],
    };
    const created = await computer.post(bffPaths.handoff(verificationId), carry);
    expect(created.status).toBe(201);
    const token = new URL(handoffSchema.parse(await created.json()).url).pathname.split('/').pop()!;
    const phone = new Browser(stack.bffUrl);
    const claimed = await phone.post(bffPaths.handoffClaim(token), {});
    expect(claimed.status).toBe(200);
    const answer = claimedHandoffSchema.parse(await claimed.json());
    expect(answer.verification.verificationId).toBe(verificationId);
    expect(answer.carry).toEqual(carry);
  });

  it('refuses a document, country or step the flow does not offer, and a missing consent', async () => {
    const computer = new Browser(stack.bffUrl);
    const { verificationId } = await verificationOn(computer);
    for (const body of [
      {},
      { consentedAt: 'yesterday' },
      { consentedAt, documents: [{ group: 0, type: 'passport', country: 'FR' }] },
      { consentedAt, documents: [{ group: 0, type: 'national-id', country: 'MX' }] },
      { consentedAt, documents: [{ group: 5, type: 'passport', country: 'MX' }] },
      { consentedAt, documents: [{ group: 0, type: 'passport', country: 'MX', region: 'CDMX' }] },
      {
        consentedAt,
        documents: [
          { group: 0, type: 'passport', country: 'MX' },
          { group: 0, type: 'passport', country: 'AR' },
        ],
      },
    ]) {
      const res = await computer.post(bffPaths.handoff(verificationId), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(bffErrorSchema.parse(await res.json()).type).toBe('ValidationError');
    }
  });

  it('refuses a consent dated in the future beyond a small clock skew (issue 34, item 6)', async () => {
    const computer = new Browser(stack.bffUrl);
    const { verificationId } = await verificationOn(computer);
    for (const future of ['2999-01-01T00:00:00.000Z', new Date(Date.now() + 3600_000).toISOString()]) {
      const res = await computer.post(bffPaths.handoff(verificationId), { consentedAt: future });
      expect(res.status, future).toBe(400);
      expect(bffErrorSchema.parse(await res.json()).message).toBe(
        'Invalid handoff: consentedAt is in the future.',
      );
    }
    // The computer's clock a minute ahead is fine.
    const ahead = new Date(Date.now() + 60_000).toISOString();
    expect((await computer.post(bffPaths.handoff(verificationId), { consentedAt: ahead })).status).toBe(201);
  });
});
