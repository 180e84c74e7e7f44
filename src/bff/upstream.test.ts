import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffErrorSchema, createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import { mxCustomFieldsInputs, sendInputForm } from '../../e2e/fixtures/send-input-form';
import { buildBffApp } from './app';
import { passportPhoto } from '../../e2e/fixtures/face-photo';
import { Browser, startStack, type Stack } from './testing/harness';
import { UpstreamClient } from './upstream/upstream-client';

let stack: Stack;
beforeAll(async () => {
  // Tokens live 2 seconds, so that a flow outlives several of them.
  stack = await startStack({ serviceEnv: { TOKEN_TTL_SECONDS: '2' } });
});
afterAll(async () => {
  await stack?.stop();
});

/** Whether this process may mount a tmpfs (root, as on the development VM and in CI). */
function canMount(): boolean {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One photo of the default size for every upload of this file (each goes to a verification of its
// own, or again to the one that refused it): drawing and encoding it is the costly part.
let defaultPhoto: Promise<Buffer> | undefined;

/** A passport photo (the service reads its MRZ, claimed Argentine: ARG) of the given size. */
async function selfieForm(width?: number, height?: number) {
  const bytes =
    width === undefined && height === undefined
      ? await (defaultPhoto ??= passportPhoto('ARG'))
      : await passportPhoto('ARG', width, height);
  return sendInputForm(
    [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'passport', country: 'AR', page: 'front', filename: 'p.jpg' },
      },
    ],
    [{ field: 'document', name: 'p.jpg', bytes }],
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
      body: await selfieForm(),
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
      const { statusCode, body } = await client.json<{ id: string }>('POST', '/v2/verifications', {
        body: { flowId: 'global-passport' },
      });
      expect(statusCode).toBe(200);
      expect(body.id).toMatch(/^[0-9a-f]+$/);
      expect(await client.tokens.get()).not.toBe('expired.or.revoked');
    } finally {
      await client.close();
    }
  });

  it('a revoked token: a small send-input is sent again with a fresh one, a streamed upload asks for a resend', async () => {
    // A second BFF on the same service, whose client believes in a token the service no longer takes.
    const client = new UpstreamClient({
      upstreamUrl: stack.service.url,
      clientId: stack.config.clientId,
      clientSecret: stack.config.clientSecret,
    });
    const bff = await buildBffApp(
      { ...stack.config, dataDir: `${stack.dataDir}/bff-revoked` },
      {
        logger: false,
        upstream: client,
      },
    );
    await bff.listen({ host: '127.0.0.1', port: 0 });
    try {
      const browser = new Browser(`http://127.0.0.1:${(bff.server.address() as AddressInfo).port}`);
      const fields = createdVerificationSchema.parse(
        await (await browser.post(bffPaths.verifications, { flowId: 'mx-ine-full' })).json(),
      );
      client.tokens.prime('expired.or.revoked', Date.now() + 60_000);
      const body = sendInputForm(mxCustomFieldsInputs);
      const small = await browser.fetch(bffPaths.sendInput(fields.identity), { method: 'POST', body });
      expect(small.status).toBe(201);
      expect(sendInputResponseSchema.parse(await small.json())[0].result).toBe(true);
      expect(await client.tokens.get()).not.toBe('expired.or.revoked');

      // A photo is streamed as it arrives, so it cannot be replayed: the browser is asked to send it again.
      const photo = createdVerificationSchema.parse(
        await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
      );
      // Well over the size the BFF reads whole.
      const form = await selfieForm(3000, 2000);
      expect((form.get('document') as Blob).size).toBeGreaterThan(128 * 1024);
      client.tokens.prime('expired.or.revoked', Date.now() + 3_600_000);
      const streamed = await browser.fetch(bffPaths.sendInput(photo.identity), {
        method: 'POST',
        body: form,
      });
      // The service answers 401 and closes without reading the rest: whether that answer arrives
      // before the connection goes is a race, so either retryable error is right.
      expect([502, 503]).toContain(streamed.status);
      expect(['upstream.tokenExpired', 'upstream.streamFailed']).toContain(
        bffErrorSchema.parse(await streamed.json()).code,
      );
      const again = await browser.fetch(bffPaths.sendInput(photo.identity), { method: 'POST', body: form });
      expect(again.status).toBe(201);
      expect(sendInputResponseSchema.parse(await again.json())[0].result).toBe(true);
    } finally {
      await bff.close();
    }
  });

  it('answers 503 while the service is down, and works again when it is back', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = createdVerificationSchema.parse(
      await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    await stack.service.stop();
    try {
      // The flows are the BFF's own configuration: served with the service away.
      expect((await browser.fetch(bffPaths.flows)).status).toBe(200);
      for (const res of [
        await browser.post(bffPaths.verifications, { flowId: 'global-passport' }),
        await browser.fetch(bffPaths.status(created.verificationId)),
        await browser.fetch(bffPaths.sendInput(created.identity), {
          method: 'POST',
          body: await selfieForm(),
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
        store: 'ok',
      });
    } finally {
      await stack.service.start();
    }
    expect((await browser.fetch(bffPaths.flows)).status).toBe(200);
    const send = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await selfieForm(),
    });
    expect(send.status).toBe(201);
    expect(await (await browser.fetch(bffPaths.health)).json()).toEqual({
      ok: true,
      upstream: 'ok',
      store: 'ok',
    });
  });

  // A real full disk: the service restarted on a small tmpfs (mounted over its data folder).
  it.skipIf(!canMount())(
    'a full service disk is 503 upstream.storageFull, and the same upload works once there is room',
    async () => {
      const browser = new Browser(stack.bffUrl);
      const dataDir = stack.service.dataDir;
      await stack.service.stop();
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dataDir], { stdio: 'ignore' });
      try {
        await stack.service.start();
        const created = createdVerificationSchema.parse(
          await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
        );
        const form = await selfieForm();
        const photoBytes = (form.get('document') as Blob).size;
        // Leave less room than the photo needs.
        const { bavail, bsize } = fs.statfsSync(dataDir);
        const filler = path.join(dataDir, 'filler');
        fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - photoBytes / 2)));

        const full = await browser.fetch(bffPaths.sendInput(created.identity), {
          method: 'POST',
          body: form,
        });
        expect(full.status).toBe(503);
        expect(bffErrorSchema.parse(await full.json())).toEqual({
          code: 'upstream.storageFull',
          type: 'SystemError',
          message: 'The verification service cannot store files right now. Please try again later.',
        });

        fs.rmSync(filler);
        const again = await browser.fetch(bffPaths.sendInput(created.identity), {
          method: 'POST',
          body: form,
        });
        expect(again.status).toBe(201);
        expect(sendInputResponseSchema.parse(await again.json())[0].result).toBe(true);
      } finally {
        await stack.service.stop();
        // Lazily: the service's worker threads may hold a file of it a moment longer.
        execFileSync('umount', ['--lazy', dataDir]);
        await stack.service.start();
      }
    },
  );
});
