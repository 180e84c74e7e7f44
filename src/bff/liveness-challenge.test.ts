import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, startStack, type Stack } from './testing/harness';

// The active liveness challenge is the embedded service's extension: the BFF carries the one the
// service chose to the browser, and creates verifications as before from a service that sets none
// (the hosted API, or the embedded one with SERVICE_EXTENSIONS=off).

async function create(stack: Stack, flowId: string) {
  const res = await new Browser(stack.bffUrl).post(bffPaths.verifications, { flowId });
  expect(res.status).toBe(201);
  return createdVerificationSchema.parse(await res.json());
}

describe('with the service extensions on', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ serviceEnv: { SERVICE_EXTENSIONS: 'on' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('hands a video verification the challenge the service chose, a new one each time', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const { livenessChallenge } = await create(stack, 'mx-ine-full');
      expect(livenessChallenge).toMatchObject({ attempt: 1, attempts: 3 });
      expect(livenessChallenge?.cuesMs).toHaveLength(livenessChallenge!.actions.length);
      seen.add(`${livenessChallenge!.actions.join(',')} ${livenessChallenge!.cuesMs.join(',')}`);
    }
    // Over a hundred sequences, each with its own cues; eight draws alike would mean no draw at all.
    expect(seen.size).toBeGreaterThan(1);
  });

  it('sets none for a selfie flow', async () => {
    expect((await create(stack, 'global-passport')).livenessChallenge).toBeUndefined();
  });
});

describe('with a service that sets no challenge', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates the video verification without one', async () => {
    const created = await create(stack, 'mx-ine-full');
    expect(created.verificationId).toBeTruthy();
    expect(created.livenessChallenge).toBeUndefined();
  });
});
