// `npm run bench:client`: what the capture SPA costs a phone. Prints figures; asserts nothing.
// 1. Builds the app and starts the product as `npm start` does (service + BFF), opens the first
//    screen of /verify/<flowId> in Chromium and sums the gzip size of every JS and CSS response.
// 2. In the capture-checks test page (e2e/fixtures/capture-harness.html, the real check modules),
//    times checkImage on a generated 12-megapixel JPEG (decode, 600×600, metrics, compression in a
//    web worker) against a plain decode of the same file, and reports the bytes saved and the longest
//    stall of the page's own thread meanwhile.
// BENCH_DIST=<dir> reuses an existing build; BENCH_ROUNDS (default 5) sets the timed rounds.
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { buildHarness, HARNESS_PAGE, serveHarness } from '../fixtures/capture-harness-server';
import { twelveMegapixelPhoto } from '../fixtures/photo-fixture';
import { freePort } from '../fixtures/free-port';
import { sleep, startNode, stopNode, waitForHttp } from './lib/node-process';
import { median } from './lib/percentile';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FIRST_SCREEN_TARGET_KB = 110;
const work = 'test-results/bench-client';
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

async function buildApp(outDir: string) {
  const { build } = await import('vite');
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

async function startProduct(staticDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const servicePort = await freePort();
  const child = startNode('src/start.ts', {
    ...process.env,
    // Vite's build sets NODE_ENV=production in this process; the product runs on its dev defaults.
    NODE_ENV: 'development',
    PORT: String(port),
    SERVICE_PORT: String(servicePort),
    STATIC_DIR: staticDir,
    DATA_DIR: `${work}/data-${Date.now()}`,
    STAFF_PASSWORD: 'bench-staff-password',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/health`, child);
  return { url, child };
}

async function firstFlowId(url: string): Promise<string> {
  // The BFF answers its health check before the service behind it is up.
  let last: unknown;
  for (let i = 0; i < 150; i++) {
    const response = await fetch(`${url}/api/flows`).catch(() => null);
    last = response && (await response.json().catch(() => null));
    if (response?.ok) {
      const list = Array.isArray(last) ? last : ((last as { flows?: unknown[] }).flows ?? []);
      const first = list[0] as { id?: string; flowId?: string } | undefined;
      const id = first?.id ?? first?.flowId;
      if (id) return id;
    }
    await sleep(200);
  }
  throw new Error(`no flow in GET /api/flows: ${JSON.stringify(last).slice(0, 200)}`);
}

/** Gzip size of each JS and CSS response the page loads until the network is quiet. */
async function firstScreenWeight(page: Page, url: string) {
  const assets: { path: string; kind: 'js' | 'css'; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    const type = response.headers()['content-type'] ?? '';
    const kind = /javascript/.test(type) || path.endsWith('.js') ? 'js' : /css/.test(type) ? 'css' : null;
    if (!kind || response.status() !== 200) return;
    pending.push(
      response.body().then(
        (body) =>
          void assets.push({ path, kind, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
        () => undefined,
      ),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  return assets;
}

async function main() {
  mkdirSync(work, { recursive: true });
  const dist = process.env.BENCH_DIST ?? `${work}/dist`;
  const harnessDir = `${work}/harness`;
  const started = Date.now();
  const photo = await twelveMegapixelPhoto();
  writeFileSync(`${work}/photo-12mp.jpg`, photo);
  await Promise.all([process.env.BENCH_DIST ? null : buildApp(dist), buildHarness(harnessDir)]);
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const product = await startProduct(dist);
  const harness = await serveHarness({ '/': harnessDir, '/generated/': work });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    const flowId = await firstFlowId(product.url);
    const page = await browser.newPage();
    const assets = await firstScreenWeight(page, `${product.url}/verify/${encodeURIComponent(flowId)}`);
    await page.close();
    const sum = (kind: 'js' | 'css', key: 'raw' | 'gzip') =>
      assets.filter((a) => a.kind === kind).reduce((n, a) => n + a[key], 0);
    console.log(`\nFirst screen of /verify/${flowId}:`);
    for (const a of assets.sort((x, y) => y.gzip - x.gzip)) {
      console.log(
        `  ${a.kind.padEnd(3)} ${kB(a.gzip).padStart(9)} gzip  ${kB(a.raw).padStart(9)} raw  ${a.path}`,
      );
    }
    const total = sum('js', 'gzip') + sum('css', 'gzip');
    console.log(`  JS  ${kB(sum('js', 'gzip'))} gzip (${kB(sum('js', 'raw'))} raw)`);
    console.log(`  CSS ${kB(sum('css', 'gzip'))} gzip (${kB(sum('css', 'raw'))} raw)`);
    console.log(
      `  total ${kB(total)} gzip: ${total <= FIRST_SCREEN_TARGET_KB * 1024 ? 'within' : 'OVER'} the ${FIRST_SCREEN_TARGET_KB} kB target`,
    );

    const checks = await browser.newPage();
    await checks.goto(harness.url + HARNESS_PAGE);
    await checks.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
    const path = '/generated/photo-12mp.jpg';
    // One untimed round each loads the libraries and warms the decoders.
    await checks.evaluate((p) => window.captureHarness.timeDecode(p), path);
    const warm = await checks.evaluate(
      (p) => window.captureHarness.timeCheckImage(p, { kind: 'document' }),
      path,
    );
    if (!warm.result || !('compressed' in warm.result) || !warm.result.compressed) {
      throw new Error(`the 12 MP photo was not compressed: ${JSON.stringify(warm.result)}`);
    }
    const decodeMs: number[] = [];
    const checkMs: number[] = [];
    const gaps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      decodeMs.push((await checks.evaluate((p) => window.captureHarness.timeDecode(p), path)).ms);
      const run = await checks.evaluate(
        (p) => window.captureHarness.timeCheckImage(p, { kind: 'document' }),
        path,
      );
      checkMs.push(run.ms);
      gaps.push(run.longestGap);
    }
    const workers = await checks.evaluate(() => window.captureHarness.workerUrls);
    const outBytes = warm.outputBytes ?? 0;
    console.log(
      `\ncheckImage on a 12 MP JPEG (4000×3000, ${kB(warm.inputBytes)}), median of ${ROUNDS} rounds:`,
    );
    console.log(`  plain decode (baseline)        ${median(decodeMs).toFixed(0)} ms`);
    console.log(
      `  check + compress               ${median(checkMs).toFixed(0)} ms  (${(median(checkMs) / median(decodeMs)).toFixed(1)}× the decode)`,
    );
    console.log(
      `  output ${warm.result.width}×${warm.result.height}, ${kB(outBytes)}: ${(((warm.inputBytes - outBytes) / warm.inputBytes) * 100).toFixed(1)}% of the bytes saved (${(warm.inputBytes / Math.max(1, outBytes)).toFixed(1)}× smaller)`,
    );
    console.log(
      `  longest stall of the page's thread during a check: ${median(gaps).toFixed(0)} ms (median)`,
    );
    console.log(
      `  workers started: ${workers.length} (${workers.filter((u) => u.startsWith('blob:')).length} blob: for the compressor)`,
    );
  } finally {
    await browser.close();
    await harness.close();
    await stopNode(product.child);
  }
}

await main();
