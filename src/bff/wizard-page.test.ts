import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/fixtures/free-port';
import type { PageData } from '@/shared/contract/page-data';
import { buildBffApp } from './app';
import { loadConfig } from './config';
import { jsonForScript } from './http/spa-page';
import { secrets } from './testing/harness';

// The HTML of a wizard route: what its first screen needs named in it (the chunks from the
// build's manifest, the strings of the person's language) and the brand and flow carried in it.
const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-page-'));
const staticDir = path.join(dir, 'dist');
const flowsDir = path.join(dir, 'flows');
const hostile = "Bank </script><script>alert(1)</script> <!-- & \u2028 $' $&";
// `$'` and `$&` mean "the text after" and "the match" to String.replace (issue 34, item 6).
const brandName = "Demo </script> $' $& Bank";
let app: FastifyInstance;
let url: string;

/** A build as Vite lays it out: index.html links the entry, the manifest lists every chunk. */
function writeBuild() {
  mkdirSync(path.join(staticDir, '.vite'), { recursive: true });
  writeFileSync(
    path.join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>IDV Capture</title><script type="module" crossorigin src="/assets/index-1.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/jsx-runtime-1.js"></head><body><div id="root"></div></body></html>',
  );
  const manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_jsx-runtime-1.js'] },
    '_jsx-runtime-1.js': { file: 'assets/jsx-runtime-1.js' },
    '_steps-1.js': { file: 'assets/steps-1.js', imports: ['_jsx-runtime-1.js'] },
    'src/features/wizard/routes/wizard-page.tsx': {
      file: 'assets/wizard-page-1.js',
      imports: ['_steps-1.js', '_jsx-runtime-1.js'],
      css: ['assets/wizard-page-1.css'],
    },
    'src/features/wizard/locales/en.json': { file: 'assets/en-1.js' },
    'src/features/wizard/locales/es.json': { file: 'assets/es-1.js' },
    'src/features/wizard/locales/pt.json': { file: 'assets/pt-1.js' },
  };
  writeFileSync(path.join(staticDir, '.vite/manifest.json'), JSON.stringify(manifest));
}

beforeAll(async () => {
  writeBuild();
  cpSync('src/service/verification/flows', flowsDir, { recursive: true });
  const passport = JSON.parse(readFileSync(path.join(flowsDir, 'global-passport.json'), 'utf8')) as {
    id: string;
    name: string;
  };
  writeFileSync(
    path.join(flowsDir, 'hostile.json'),
    JSON.stringify({ ...passport, id: 'hostile', name: hostile }),
  );
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
    DATA_DIR: path.join(dir, 'data'),
    STATIC_DIR: staticDir,
    FLOWS_DIR: flowsDir,
    BRAND_NAME: brandName,
    RETENTION_DAYS: '30',
  });
  app = await buildBffApp(config, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page's data as the browser reads it: the element's text, JSON.parse. */
function pageDataOf(html: string): PageData {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]) as PageData;
}

describe('the HTML of /verify/:flowId', () => {
  it('preloads the route chunks and the strings of the language Accept-Language prefers', async () => {
    const response = await fetch(`${url}/verify/global-passport`, {
      headers: { 'accept-language': 'fr-CA,fr;q=0.9,pt-BR;q=0.8,en;q=0.5' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('vary')).toMatch(/accept-language/i);
    const html = await response.text();
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (m) => m[1],
    );
    // The entry's own imports are linked by index.html already; the route's are added, once.
    expect(preloads).toEqual([
      '/assets/jsx-runtime-1.js',
      '/assets/wizard-page-1.js',
      '/assets/steps-1.js',
      '/assets/pt-1.js',
    ]);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/wizard-page-1.css">');
    const es = await (
      await fetch(`${url}/verify/global-passport`, { headers: { 'accept-language': 'es-AR' } })
    ).text();
    expect(es).toContain('href="/assets/es-1.js"');
    expect(es).not.toContain('href="/assets/pt-1.js"');
    const none = await (await fetch(`${url}/verify/global-passport`)).text();
    expect(none).toContain('href="/assets/en-1.js"');
  });

  it('carries the flow as the API serves it and the brand with the retention setting', async () => {
    const data = pageDataOf(await (await fetch(`${url}/verify/global-passport`)).text());
    expect(data.flow).toEqual(await (await fetch(`${url}/api/flows/global-passport`)).json());
    expect(data.brand).toEqual(await (await fetch(`${url}/api/brand`)).json());
    expect(data.brand).toMatchObject({ name: brandName, retentionDays: 30 });
    // An unknown flow: no flow in the page (the SPA asks the API, which answers 404).
    expect(pageDataOf(await (await fetch(`${url}/verify/no-such-flow`)).text()).flow).toBeUndefined();
  });

  it('writes texts that contain </script> or <!-- so that they cannot end the element', async () => {
    const html = await (await fetch(`${url}/verify/hostile`)).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('Demo </script>');
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the entry's and the data's own
    const data = pageDataOf(html);
    expect(data.flow?.name).toBe(hostile);
    expect(data.brand.name).toBe(brandName);
    expect(jsonForScript({ a: '</script>' })).toBe('{"a":"\\u003c/script\\u003e"}');
  });

  it('names the brand in the title as written, $ signs included', async () => {
    for (const flow of ['global-passport', 'hostile']) {
      const html = await (await fetch(`${url}/verify/${flow}`)).text();
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain("<title>Demo &lt;/script&gt; $' $&amp; Bank</title>");
      expect(html.match(/<!doctype html>/g)).toHaveLength(1);
      expect(html.match(/<\/head>/g)).toHaveLength(1);
    }
  });

  it('does not serve the build manifest', async () => {
    expect((await fetch(`${url}/.vite/manifest.json`)).status).toBe(404);
  });
});
