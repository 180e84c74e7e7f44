import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffErrorSchema, bffPaths, createdVerificationSchema } from '@/shared/bff-api';
import { sendInputResponseSchema } from '@/shared/inputs';
import { sendInputForm } from '../../e2e/fixtures/send-input-form';
import { Browser, makeImage, startStack, type Stack } from './testing/harness';
import { UpstreamClient } from './upstream/upstream-client';

let stack: Stack;
beforeAll(async () => {
  // Tokens live 2 seconds, so that a flow outlives several of them.
  stack = await startStack({ serviceEnv: { TOKEN_TTL_SECONDS: '2' } });
});
afterAll(async () => {
  await stack?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function selfieForm(seed: number) {
  return sendInputForm(
    [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'passport', country: 'AR', page: 'front', filename: 'p.jpg' },
      },
    ],
    [{ field: 'document', name: 'p.jpg', bytes: await makeImage(seed) }],
  );
}

describe('the service connection', () => {
  it('renews a token that expires mid-flow, transparently', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = createdVerificationSchema.parse(
      await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    // Calls spread over three token lifetimes: each one must find a valid token.
    for (let i = 0; i < 5; i++) {
      await sleep(600);
      const res = await browser.fetch(bffPaths.status(created.verificationId));
      expect(res.status).toBe(200);
    }
    await sleep(2100);
    const send = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await selfieForm(5),
    });
    expect(send.status).toBe(201);
    expect(sendInputResponseSchema.parse(await send.json())[0].result).toBe(true);
  });

  it('on a 401 renews the token once and retries the call', async () => {
    const client = new UpstreamClient({
      upstreamUrl: stack.service.url,
      clientId: stack.config.clientId,
      clientSecret: stack.config.clientSecret,
    });
    try {
      // The cache believes in a token the service no longer takes.
      client.tokens.prime('expired.or.revoked', Date.now() + 60_000);
      const { statusCode, body } = await client.json<{ id: string }[]>('GET', '/v2/flows');
      expect(statusCode).toBe(200);
      expect(body.map((f) => f.id)).toContain('global-passport');
      expect(await client.tokens.get()).not.toBe('expired.or.revoked');
    } finally {
      await client.close();
    }
  });

  it('answers 503 while the service is down, and works again when it is back', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = createdVerificationSchema.parse(
      await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    await stack.service.stop();
    try {
      for (const res of [
        await browser.fetch(bffPaths.flows),
        await browser.post(bffPaths.verifications, { flowId: 'global-passport' }),
        await browser.fetch(bffPaths.status(created.verificationId)),
        await browser.fetch(bffPaths.sendInput(created.identity), {
          method: 'POST',
          body: await selfieForm(6),
        }),
      ]) {
        expect(res.status).toBe(503);
        expect(bffErrorSchema.parse(await res.json())).toMatchObject({
          code: 'upstream.unavailable',
          type: 'SystemError',
        });
      }
      expect(await (await browser.fetch(bffPaths.health)).json()).toEqual({
        ok: false,
        upstream: 'unavailable',
      });
    } finally {
      await stack.service.start();
    }
    expect((await browser.fetch(bffPaths.flows)).status).toBe(200);
    const send = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await selfieForm(7),
    });
    expect(send.status).toBe(201);
    expect(await (await browser.fetch(bffPaths.health)).json()).toEqual({ ok: true, upstream: 'ok' });
  });
});
