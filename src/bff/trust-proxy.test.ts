import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/fixtures/free-port';
import { buildBffApp } from './app';
import { loadConfig, parseTrustProxy } from './config';
import { secrets } from './testing/harness';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function bffWith(trustProxy: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-proxy-'));
  dirs.push(dir);
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
    DATA_DIR: dir,
    STATIC_DIR: 'none',
    TRUST_PROXY: trustProxy,
  });
  const app = await buildBffApp(config, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/**
 * Wrong staff passwords as a proxy in front of the BFF passes them on: the attacker's own
 * (rotating) X-Forwarded-For, then the address the proxy saw, appended by the proxy.
 */
async function wrongLogins(url: string, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/api/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
      body: JSON.stringify({ password: 'not-the-password' }),
    });
    statuses.push(response.status);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('parses hop counts and address lists, reads `true` as one hop, refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example', '1.2.3', '::1/129']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('sends HSTS over https (as the proxy says) and never over plain http', async () => {
    const { app, url } = await bffWith('1');
    try {
      const https = await fetch(`${url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers.get('strict-transport-security')).toContain('max-age=');
      const http = await fetch(`${url}/api/health`);
      expect(http.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await app.close();
    }
  });

  for (const setting of ['true', '1', '127.0.0.1']) {
    it(`with ${setting}, a rotating X-Forwarded-For does not escape the staff login limit`, async () => {
      const { app, url } = await bffWith(setting);
      try {
        const statuses = await wrongLogins(url, 8);
        // STAFF_LOGIN_MAX_PER_MINUTE is 5: the sixth try from the one real address is refused.
        expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
        expect(statuses.slice(5)).toEqual([429, 429, 429]);
      } finally {
        await app.close();
      }
    });
  }
});
