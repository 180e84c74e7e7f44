import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devDefaults } from '@/server-shared/dev-defaults';
import { loadConfig } from './config';

const production = {
  NODE_ENV: 'production',
  SERVICE_CLIENT_ID: 'a',
  SERVICE_CLIENT_SECRET: 'b',
  WEBHOOK_SECRET: 'c',
  STAFF_PASSWORD: 'd',
  SESSION_SECRET: 'e',
};

describe('BFF settings', () => {
  it('runs on the development defaults outside production', () => {
    const config = loadConfig({ STAFF_PASSWORD: 'p' });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      upstreamUrl: 'http://127.0.0.1:8081',
      clientId: devDefaults.SERVICE_CLIENT_ID,
      publicUrl: 'http://127.0.0.1:8080',
      staticDir: path.resolve('dist'),
      rateLimitMax: 3000,
      reconcileMs: 300_000,
      trustProxy: false,
      creditCheckSegment: 'credit-bureau',
      brand: { name: 'IDV Capture', primaryColor: null, font: null, logoFile: null },
    });
    expect(loadConfig({ STAFF_PASSWORD: 'p', PORT: '0' }).publicUrl).toBeNull();
  });

  it('refuses development secrets and missing ones in production', () => {
    expect(loadConfig(production).staffPassword).toBe('d');
    expect(() => loadConfig({ ...production, WEBHOOK_SECRET: devDefaults.WEBHOOK_SECRET })).toThrow(
      'Invalid setting WEBHOOK_SECRET: must be set to a non-default value when NODE_ENV=production',
    );
    for (const name of ['STAFF_PASSWORD', 'SESSION_SECRET'] as const) {
      expect(() => loadConfig({ ...production, [name]: '' })).toThrow(
        `Invalid setting ${name}: must be set when NODE_ENV=production`,
      );
    }
  });

  it('refuses the published development secrets on a non-loopback address, whatever NODE_ENV', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost'])
      expect(loadConfig({ STAFF_PASSWORD: 'p', HOST: host }).host).toBe(host);
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      expect(() => loadConfig({ STAFF_PASSWORD: 'p', HOST: '0.0.0.0', NODE_ENV })).toThrow(
        'Invalid setting SERVICE_CLIENT_ID: is the published development value; set your own when HOST (0.0.0.0) is not a loopback address',
      );
    }
    const own = { STAFF_PASSWORD: 'p', SERVICE_CLIENT_ID: 'a', SERVICE_CLIENT_SECRET: 'b' };
    expect(() => loadConfig({ ...own, HOST: '::' })).toThrow('Invalid setting WEBHOOK_SECRET:');
    expect(() => loadConfig({ ...own, HOST: '192.168.1.20' })).toThrow('Invalid setting WEBHOOK_SECRET:');
    expect(loadConfig({ ...own, WEBHOOK_SECRET: 'c', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('reads URLs, the proxy setting and the brand', () => {
    const config = loadConfig({
      STAFF_PASSWORD: 'p',
      UPSTREAM_URL: 'https://service.example.com/',
      PUBLIC_BFF_URL: 'https://idv.example.com/',
      TRUST_PROXY: 'true',
      STATIC_DIR: 'none',
      RECONCILE_SECONDS: '0.5',
      BRAND_NAME: 'x'.repeat(100),
      BRAND_PRIMARY_COLOR: '#14b8a6',
      BRAND_LOGO_FILE: 'logo.svg',
    });
    expect(config).toMatchObject({
      upstreamUrl: 'https://service.example.com',
      publicUrl: 'https://idv.example.com',
      trustProxy: 1,
      staticDir: null,
      reconcileMs: 500,
      brand: { name: 'x'.repeat(80), primaryColor: '#14b8a6', logoFile: path.resolve('logo.svg') },
    });
  });

  it('refuses a value in one line naming the setting', () => {
    const cases: [Record<string, string>, string][] = [
      [{ RATE_LIMIT_MAX: '1e9' }, 'Invalid setting RATE_LIMIT_MAX: expected a whole number ≥ 0, got "1e9"'],
      [{ PORT: '80.5' }, 'Invalid setting PORT: expected a port number (0 to 65535), got "80.5"'],
      [
        { UPSTREAM_URL: 'service:8081' },
        'Invalid setting UPSTREAM_URL: expected an http(s) URL, got "service:8081"',
      ],
      [
        { TRUST_PROXY: '10.0.0.0/33' },
        'Invalid setting TRUST_PROXY: expected a hop count or a list of proxy addresses/CIDRs, got "10.0.0.0/33"',
      ],
      [
        { BRAND_PRIMARY_COLOR: 'teal' },
        'Invalid setting BRAND_PRIMARY_COLOR: expected a colour as #rrggbb, got "teal"',
      ],
      [
        { BRAND_FONT: 'x;}' },
        'Invalid setting BRAND_FONT: expected a CSS font-family list (letters, digits, spaces, commas, quotes), got "x;}"',
      ],
      [
        { BRAND_LOGO_FILE: 'logo.gif' },
        'Invalid setting BRAND_LOGO_FILE: expected a .png, .svg, .jpg or .webp file, got "logo.gif"',
      ],
      [
        { CREDIT_CHECK_SEGMENT: 'a/b' },
        'Invalid setting CREDIT_CHECK_SEGMENT: expected a path segment, got "a/b"',
      ],
    ];
    for (const [env, line] of cases)
      expect(() => loadConfig({ STAFF_PASSWORD: 'p', ...env }), line).toThrow(line);
  });
});
