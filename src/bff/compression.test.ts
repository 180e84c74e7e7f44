import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressible } from '@/build/precompress';
import { COMPRESS_THRESHOLD_BYTES } from './http/compress-replies';
import { startStack, type Stack } from './testing/harness';

// The real build (vite.config.ts, with its precompression) served by the real BFF, its real service behind it.
let dist: string;
let stack: Stack;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'idv-bff-dist-'));
  const { build } = await import('vite');
  // A production build, as `npm start` makes it (Vitest sets NODE_ENV=test, which Vite would keep).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: 'vite.config.ts',
      logLevel: 'warn',
      build: { outDir: dist, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  stack = await startStack({ bffEnv: { STATIC_DIR: dist } });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(dist, { recursive: true, force: true });
  rmSync(`${dist}-server`, { recursive: true, force: true });
});

const builtFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? builtFiles(path.join(dir, entry.name))
      : /\.(br|gz)$/.test(entry.name)
        ? []
        : [path.join(dir, entry.name)],
  );

async function get(pathname: string, acceptEncoding?: string) {
  const response = await request(stack.bffUrl + pathname, {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  const header = (name: string) => {
    const value = response.headers[name];
    return value === undefined ? undefined : String(value);
  };
  return { status: response.statusCode, header, body };
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

describe('static files, precompressed at build time', () => {
  it('serves every built file as brotli, gzip or plain by Accept-Encoding, byte for byte', async () => {
    // Vite's manifest is read by the BFF to name a route's preloads, never served.
    expect((await get('/.vite/manifest.json', 'br, gzip')).status).toBe(404);
    const files = builtFiles(dist).filter((f) => !f.includes(`${path.sep}.vite${path.sep}`));
    expect(files.some((f) => f.endsWith('.wasm') || f.includes('pdf.worker'))).toBe(true);
    for (const file of files) {
      const pathname = `/${path.relative(dist, file).split(path.sep).join('/')}`;
      const bytes = readFileSync(file);
      const br = existsSync(`${file}.br`) ? 'br' : undefined;
      const gzip = existsSync(`${file}.gz`) ? 'gzip' : undefined;
      // The build compressed every text file and wasm but the tiniest.
      if (compressible.test(file) && bytes.length > 1024)
        expect([br, gzip], pathname).toEqual(['br', 'gzip']);
      for (const [accept, expected] of [
        ['br, gzip, deflate', br ?? gzip],
        ['gzip, deflate', gzip],
        ['gzip;q=1, br;q=0', gzip],
        [undefined, undefined],
        ['identity', undefined],
      ] as const) {
        const reply = await get(pathname, accept);
        expect(reply.status, pathname).toBe(200);
        expect(reply.header('content-encoding'), `${pathname} with ${accept}`).toBe(expected);
        expect(decode(reply.header('content-encoding'), reply.body).equals(bytes), pathname).toBe(true);
        expect(reply.header('vary'), pathname).toMatch(/accept-encoding/i);
        if (pathname.startsWith('/assets/'))
          expect(reply.header('cache-control')).toBe('public, max-age=31536000, immutable');
        else expect(reply.header('cache-control')).toBe('no-cache');
        if (pathname.endsWith('.js') || pathname.endsWith('.mjs'))
          expect(reply.header('content-type')).toMatch(/javascript/);
      }
    }
  });

  it('serves index.html compressed for client-side routes too', async () => {
    const index = readFileSync(path.join(dist, 'index.html'));
    for (const pathname of ['/', '/console']) {
      const reply = await get(pathname, 'br, gzip');
      expect(reply.status).toBe(200);
      expect(reply.header('content-type')).toMatch(/^text\/html/);
      expect(reply.header('cache-control')).toBe('no-cache');
      const encoding = reply.header('content-encoding');
      if (index.length > 1024) expect(encoding).toBe('br');
      expect(decode(encoding, reply.body).equals(index)).toBe(true);
    }
    // A wizard route's page is index.html with its preloads and data written in (wizard-page.test.ts).
    const wizard = await get('/verify/global-passport', 'br, gzip');
    expect(wizard.status).toBe(200);
    expect(wizard.header('content-type')).toMatch(/^text\/html/);
    expect(wizard.header('cache-control')).toBe('no-cache');
    expect(decode(wizard.header('content-encoding'), wizard.body).toString('utf8')).toContain(
      '<div id="root">',
    );
  });
});

describe('JSON answers', () => {
  it('compresses an answer above the threshold once, by Accept-Encoding, and leaves small ones alone', async () => {
    // The largest flow description: a few kB of JSON.
    const list = JSON.parse((await get('/api/flows')).body.toString('utf8')) as { id: string }[];
    const answers = await Promise.all(list.map((flow) => get(`/api/flows/${flow.id}`)));
    const plain = answers.sort((a, b) => b.body.length - a.body.length)[0];
    const pathname = `/api/flows/${JSON.parse(plain.body.toString('utf8')).id as string}`;
    expect(plain.status).toBe(200);
    expect(plain.header('content-encoding')).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const json = JSON.parse(plain.body.toString('utf8'));
    for (const accept of ['br, gzip', 'gzip']) {
      const reply = await get(pathname, accept);
      const encoding = reply.header('content-encoding');
      expect(encoding).toBe(accept.startsWith('br') ? 'br' : 'gzip');
      expect(reply.header('vary')).toMatch(/accept-encoding/i);
      expect(reply.body.length).toBeLessThan(plain.body.length);
      // Decoding once gives the JSON: it was not compressed twice.
      expect(JSON.parse(decode(encoding, reply.body).toString('utf8'))).toEqual(json);
    }
    const small = await get('/api/health', 'br, gzip');
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(small.header('content-encoding')).toBeUndefined();
  });
});
