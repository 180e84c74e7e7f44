import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffErrorSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import { buildBffApp } from './app';
import { loadConfig } from './config';
import { SqlStore } from './store/sql-store';
import { secrets, toBlob } from './testing/harness';

// A service that issues tokens but never answers a send-input (the BFF gives up in time, clearly),
// except for one identity, whose answer comes in chunks.
let hung: http.Server;
let app: FastifyInstance;
let store: SqlStore;
let url: string;
const held: http.ServerResponse[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-hung-'));
beforeAll(async () => {
  hung = http.createServer((req, res) => {
    if (req.url === '/oauth') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          access_token: 'token',
          expiresIn: 3600,
          payload: { user: { _id: 'u', firstName: 'A', lastName: 'B' } },
        }),
      );
      return;
    }
    // An answer in chunks (no Content-Length), as a proxy in front of the hosted API may send it.
    if (req.url === '/v2/identities/i-chunked/send-input') {
      req.resume();
      req.once('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('[{"result":false,"data":{"filename":"s.jpg"},');
        res.end(
          '"error":{"type":"ValidationError","code":"selfiePhoto.closedEyes","message":"eyes closed"}}]',
        );
      });
      return;
    }
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
    DATA_DIR: dir,
    STATIC_DIR: 'none',
    SEND_INPUT_TIMEOUT_MS: '800',
  });
  store = SqlStore.inDataDir(config.dataDir);
  app = await buildBffApp(config, { logger: false, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await app?.close();
  await new Promise((resolve) => hung.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A selfie send-input of `bytes` JPEG-looking bytes, from a session bound to a verification. */
async function sendSelfie(session: string, verificationId: string, identity: string, bytes: number) {
  await store.bindVerification(session, {
    verificationId,
    identity,
    flowId: 'global-passport',
    flowName: null,
  });
  const form = new FormData();
  form.append('inputs', '[{"inputType":"selfie-photo","data":{"type":"selfie-photo","filename":"s.jpg"}}]');
  form.append(
    'selfie',
    toBlob(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(bytes)])),
    's.jpg',
  );
  return fetch(`${url}${bffPaths.sendInput(identity)}`, {
    method: 'POST',
    headers: { cookie: `idv_session=${app.signCookie(session)}` },
    body: form,
  });
}

describe('a service answering in chunks', () => {
  it("passes the answer on whole and keeps each input's result", async () => {
    const res = await sendSelfie('session-c', 'v-c', 'i-chunked', 2000);
    expect(res.status).toBe(201);
    expect(sendInputResponseSchema.parse(await res.json())[0]).toMatchObject({
      result: false,
      error: { code: 'selfiePhoto.closedEyes' },
    });
    expect(await store.inputResultsOf('v-c')).toMatchObject([
      { slot: 'biometric', accepted: false, code: 'selfiePhoto.closedEyes' },
    ]);
  });
});

describe('a hung service', () => {
  it('times out a send-input after SEND_INPUT_TIMEOUT_MS with 504 upstream.timeout', async () => {
    const res = await sendSelfie('session-h', 'v-h', 'i-h', 300_000);
    const answer = await res.clone().text();
    expect(res.status, answer).toBe(504);
    expect(bffErrorSchema.parse(await res.json())).toMatchObject({ code: 'upstream.timeout' });
  });
});
