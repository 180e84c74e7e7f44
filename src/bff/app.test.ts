import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffErrorSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { buildBffApp } from './app';
import { loadConfig } from './config';
import { SqlStore } from './store/sql-store';
import { freePort } from '../../e2e/fixtures/free-port';
import { secrets, toBlob } from './testing/harness';

// The BFF alone, its service unreachable: static files, headers, limits and the refusals that need no service.
let app: FastifyInstance;
let url: string;
let dir: string;
let store: SqlStore;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-app-'));
  mkdirSync(path.join(dir, 'dist', 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'dist', 'index.html'),
    '<!doctype html><title>IDV</title><div id="root"></div>',
  );
  writeFileSync(path.join(dir, 'dist', 'assets', 'app-1234.js'), 'console.log("app")');
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
    DATA_DIR: path.join(dir, 'data'),
    STATIC_DIR: path.join(dir, 'dist'),
    RATE_LIMIT_MAX: '5',
  });
  store = SqlStore.inDataDir(config.dataDir);
  app = await buildBffApp(config, { logger: false, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the BFF on its own', () => {
  it('serves the SPA with a strict CSP, and index.html for client-side routes', async () => {
    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root">');
    const csp = index.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'self'",
      "img-src 'self' blob: data:",
      "media-src 'self' blob:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toMatch(/script-src 'self'( 'wasm-unsafe-eval')?;/);
    expect(csp).not.toContain('unsafe-inline');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');

    const deep = await fetch(`${url}/console/verifications/abc`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/^text\/html/);
    const asset = await fetch(`${url}/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');

    // API and webhook paths never fall back to the SPA.
    const api = await fetch(`${url}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(bffErrorSchema.parse(await api.json()).code).toBe('not_found');
    // Error answers carry the same security headers as pages.
    expect(api.headers.get('content-security-policy')).toBe(csp);
    expect(api.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(api.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(api.headers.get('x-powered-by')).toBeNull();
    expect((await fetch(`${url}/webhooks/nothing`)).status).toBe(404);
  });

  it('answers 503 upstream.unavailable without its service, and stays up', async () => {
    // The flows are the BFF's own configuration: they are served without the service.
    expect((await fetch(`${url}${bffPaths.flows}`)).status).toBe(200);
    const res = await fetch(`${url}${bffPaths.verifications}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'ar-national-id' }),
    });
    expect(res.status).toBe(503);
    expect(bffErrorSchema.parse(await res.json())).toMatchObject({
      code: 'upstream.unavailable',
      type: 'SystemError',
    });
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    // Plain http: no HSTS (it is sent over https only, see trust-proxy.test.ts).
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const health = await fetch(`${url}${bffPaths.health}`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, upstream: 'unavailable', store: 'ok' });
  });

  it('survives a refused upload while it cannot even get a token', async () => {
    await store.bindVerification('session-1', {
      verificationId: 'v-1',
      identity: 'i-1',
      flowId: 'global-passport',
      flowName: null,
    });
    const form = new FormData();
    form.append('inputs', '[]');
    form.append('selfie', toBlob(Buffer.alloc(256 * 1024, 0x25)), 'selfie.jpg');
    const res = await fetch(`${url}${bffPaths.sendInput('i-1')}`, {
      method: 'POST',
      headers: { cookie: `idv_session=${app.signCookie('session-1')}` },
      body: form,
    });
    // Whichever comes first, the format check or the missing service, the answer is an envelope.
    expect([415, 503]).toContain(res.status);
    expect(bffErrorSchema.parse(await res.json()).type).toBeDefined();
    expect((await fetch(`${url}/`)).status).toBe(200);
  });

  it('rate-limits the public API per client (RATE_LIMIT_MAX) with a 429 envelope, not the SPA', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const res = await fetch(`${url}${bffPaths.verifications}/x/status`);
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(bffErrorSchema.parse(await limited!.json()).code).toBe('rate.limited');
    expect((await fetch(`${url}/`)).status).toBe(200);
  });
});
