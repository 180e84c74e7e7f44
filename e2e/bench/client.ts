// `npm run bench:client`: what the capture SPA costs a phone. Prints figures; asserts nothing.
// 1. Builds the app and starts the product as `npm start` does (service + BFF), opens the first
//    screens of / and /verify/<flowId> in Chromium and sums the bytes of the requests started before
//    each showed (timed in the page), beside what the same files weigh uncompressed (as the BFF sent them before it served
//    the build's precompressed copies); then each lazily loaded step's transferred weight, from
//    the build's chunk graph (src/build/first-screen-budget.ts).
// 2. In the capture-checks test page (e2e/fixtures/capture-harness.html, the real check modules),
//    times checkImage on a generated 12-megapixel JPEG (one decode, 600×600, metrics and the JPEG
//    encode in the photo worker) against a plain decode of the same file on the page, and reports
//    the bytes saved and the longest stall of the page's own thread meanwhile (timer ticks, frames,
//    long tasks); then a camera photo (Chromium's fake camera) from the shutter to checkImage's
//    answer, the video frame sent to the photo worker against the previous path (a page canvas, a
//    JPEG by toBlob, checkImage decoding that file), with the stalls of each.
// 3. The first screen of /verify/<flowId> as a phone on a slow network meets it: 390×844, cache off,
//    with DevTools' Fast 3G and a Slow 4G (e2e/bench/lib/throttled-first-screen.ts) and 4× CPU
//    slowdown, until "Agree and start" is usable (BENCH_FIRST_RUNS runs each, default 3, median),
//    with the request chain (start → end of each request) of the median run, so that a request
//    waiting on another shows.
// BENCH_DIST=<dir> reuses an existing build; BENCH_ROUNDS (default 5) sets the timed rounds;
// BENCH_FLOW the flow (default global-passport); BENCH_FIRST_SCREEN_ONLY=1 skips the checks (2.).
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Page, type Request } from '@playwright/test';
import type { Plugin } from 'vite';
import { BundleWeights, type Bundle } from '@/build/first-screen-budget';
import { chromiumArgs } from '../../playwright.config';
import { firstScreens } from '../../vite.config';
import { buildHarness, HARNESS_PAGE, serveHarness } from '../fixtures/capture-harness-server';
import { twelveMegapixelPhoto } from '../fixtures/photo-fixture';
import { freePort } from '../fixtures/free-port';
import { sleep, startNode, stopNode, waitForHttp } from './lib/node-process';
import { median } from './lib/percentile';
import {
  phoneProfiles,
  printFirstScreenRuns,
  timeFirstScreen,
  type FirstScreenRun,
  type NetworkProfile,
} from './lib/throttled-first-screen';
import { testSettings } from '../fixtures/test-settings';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FIRST_RUNS = Number(process.env.BENCH_FIRST_RUNS ?? 3);
const FIRST_SCREEN_ONLY = process.env.BENCH_FIRST_SCREEN_ONLY === '1';
const FIRST_SCREEN_TARGET_KB = 80;
const CHECK_TARGET_MS = 200;
const CAMERA_TARGET_MS = 300;
const STALL_TARGET_MS = 16;

interface Stall {
  timerGap: number;
  frameGap: number;
  longTask: number;
  tick: number;
}

/** The page's longest stall: a gap between 4-ms timer ticks, less the tick, and between frames. */
function printStalls(when: string, runs: Stall[]) {
  const worst = (pick: (s: Stall) => number) => Math.max(...runs.map(pick));
  const timer = worst((s) => s.timerGap - s.tick);
  console.log(
    `  longest main-thread stall ${when}, worst of ${runs.length}: ${timer.toFixed(0)} ms between timer ticks ` +
      `(target ≤ ${STALL_TARGET_MS} ms: ${timer <= STALL_TARGET_MS ? 'met' : 'MISSED'}), ` +
      `${worst((s) => s.frameGap).toFixed(0)} ms between frames (16.7 ms is one frame), ` +
      `longest task ${worst((s) => s.longTask).toFixed(0)} ms (0: none over 50 ms)`,
  );
}
const work = 'test-results/bench-client';
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Builds the SPA; returns its chunk graph's weights (null with BENCH_DIST: no build). */
async function buildApp(outDir: string) {
  const { build } = await import('vite');
  let weights: BundleWeights | null = null;
  const capture: Plugin = {
    name: 'bench-bundle',
    writeBundle(_options, bundle) {
      weights = new BundleWeights(bundle as unknown as Bundle, process.cwd());
    },
  };
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    plugins: [capture],
    build: { outDir, emptyOutDir: true },
  });
  return weights as BundleWeights | null;
}

/** The lazily loaded steps: the modules each loads, beyond the first screen of /verify. */
const lazySteps: Record<string, string[]> = {
  'document step': ['src/features/wizard/components/document-step.tsx'],
  'biometric step': ['src/features/wizard/components/biometric-step.tsx'],
  'custom document step': ['src/features/wizard/components/custom-document-step.tsx'],
  'custom fields step': ['src/features/wizard/components/custom-fields-step.tsx'],
  'bank step': ['src/features/wizard/components/bank-step.tsx'],
  'review screen': ['src/features/wizard/components/review-screen.tsx'],
  'failures screen': ['src/features/wizard/components/failures-screen.tsx'],
  'done screen': ['src/features/wizard/components/done-screen.tsx'],
  camera: ['src/features/wizard/capture/camera-capture.tsx'],
  'video recorder': ['src/features/wizard/capture/video-recorder.tsx'],
  'photo checks': ['src/features/wizard/checks/check-image.ts'],
  'PDF checks (pdf.js and its worker)': ['src/features/wizard/checks/check-pdf.ts'],
  'video checks': ['src/features/wizard/checks/check-video.ts'],
  'staff console': ['src/features/console/routes/console-app.tsx'],
};

function printLazySteps(weights: BundleWeights) {
  const first = weights.firstScreen(firstScreens['/verify/:flowId']);
  console.log('\nLazily loaded steps (what each adds to the first screen of /verify, as sent):');
  console.log('  step                                   brotli   uncompressed');
  for (const [name, modules] of Object.entries(lazySteps)) {
    let files: Set<string>;
    try {
      files = weights.filesOf(modules);
    } catch {
      console.log(`  ${name.padEnd(36)} (not a chunk of its own in this build)`);
      continue;
    }
    for (const file of [...files]) if (first.has(file)) files.delete(file);
    const { raw, brotli } = weights.total(files);
    console.log(
      `  ${name.padEnd(36)} ${kB(brotli).padStart(9)}  ${kB(raw).padStart(11)}${files.size ? '' : '  (on the first screen)'}`,
    );
  }
}

async function startProduct(staticDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const servicePort = await freePort();
  // As `npm start` runs it: the servers built beside the SPA (src/build/servers.ts).
  const child = startNode(`${staticDir}-server/start.js`, {
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

/** BENCH_FLOW, else global-passport (the flow the first-screen figures were first taken on), else the first. */
async function benchFlowId(url: string): Promise<string> {
  const first = await firstFlowId(url);
  const wanted = process.env.BENCH_FLOW ?? 'global-passport';
  const response = await fetch(`${url}/api/flows/${encodeURIComponent(wanted)}`).catch(() => null);
  return response?.ok ? wanted : first;
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

/**
 * Every response the page needs until it shows: requests started before the frame in which `shown`
 * (run in the page at each animation frame) first holds, waited for to the end; bytes on the wire
 * (the body as sent, with its Content-Encoding) and uncompressed. Timed in the page, since what the
 * app fetches once the screen has painted (its idle preloads) may start before Playwright hears of it.
 */
async function firstScreenWeight(page: Page, url: string, shown: { selector: string; text?: string }) {
  const requests: Request[] = [];
  page.on('request', (request) => void requests.push(request));
  await page.goto(url);
  const moment = await page.waitForFunction(
    ({ selector, text }) =>
      [...document.querySelectorAll(selector)].some((e) => !text || e.textContent?.trim() === text) &&
      performance.timeOrigin + performance.now(),
    shown,
    { polling: 'raf' },
  );
  const shownAt = Number(await moment.jsonValue());
  await page.waitForLoadState('networkidle');
  const files: { path: string; encoding: string; sent: number; raw: number }[] = [];
  for (const request of requests) {
    const response = await request.response();
    const path = new URL(request.url()).pathname;
    // The API's answers are data, not the app's code.
    if (!response || response.status() !== 200 || path.startsWith('/api/')) continue;
    if (request.timing().startTime > shownAt) continue;
    const sizes = await request.sizes();
    const body = await response.body().catch(() => Buffer.alloc(0));
    const encoding = (await response.headerValue('content-encoding')) ?? 'none';
    files.push({ path, encoding, sent: sizes.responseBodySize, raw: body.length });
  }
  return files;
}

function printFirstScreen(route: string, files: Awaited<ReturnType<typeof firstScreenWeight>>) {
  console.log(`\nFirst screen of ${route}:`);
  for (const f of files.sort((x, y) => y.sent - x.sent))
    console.log(
      `  ${kB(f.sent).padStart(9)} sent (${f.encoding.padEnd(4)})  ${kB(f.raw).padStart(9)} uncompressed  ${f.path}`,
    );
  const sent = files.reduce((n, f) => n + f.sent, 0);
  const raw = files.reduce((n, f) => n + f.raw, 0);
  console.log(
    `  total ${kB(sent)} transferred, against ${kB(raw)} uncompressed (as sent before: ${(raw / Math.max(1, sent)).toFixed(1)}× more); ` +
      `${sent <= FIRST_SCREEN_TARGET_KB * 1024 ? 'within' : 'OVER'} the ${FIRST_SCREEN_TARGET_KB} kB target`,
  );
}

/** The build's figure for the route (its budget's), and where the files it counts and those fetched differ. */
function compareWithBuild(
  weights: BundleWeights,
  route: string,
  fetched: Awaited<ReturnType<typeof firstScreenWeight>>,
) {
  const counted = weights.firstScreen(firstScreens[route]);
  // The page (index.html, whatever its path) is left out of both.
  const paths = new Set(fetched.map((f) => f.path.slice(1)));
  const notCounted = fetched.filter((f) => f.path.startsWith('/assets/') && !counted.has(f.path.slice(1)));
  const notFetched = [...counted].filter((file) => file !== 'index.html' && !paths.has(file));
  console.log(
    `  the build's budget counts ${kB(weights.total(counted).brotli)} for ${route}; ` +
      `fetched but not counted: ${notCounted.map((f) => `${f.path} (${kB(f.sent)})`).join(', ') || 'none'}; ` +
      `counted but not fetched: ${notFetched.join(', ') || 'none'}`,
  );
}

async function main() {
  mkdirSync(work, { recursive: true });
  const dist = process.env.BENCH_DIST ?? `${work}/dist`;
  const harnessDir = `${work}/harness`;
  const started = Date.now();
  const photo = await twelveMegapixelPhoto();
  writeFileSync(`${work}/photo-12mp.jpg`, photo);
  const [weights] = await Promise.all([
    process.env.BENCH_DIST ? null : buildApp(dist),
    FIRST_SCREEN_ONLY ? null : buildHarness(harnessDir),
  ]);
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const product = await startProduct(dist);
  const harness = await serveHarness({ '/': harnessDir, '/generated/': work });
  const browser = await chromium.launch({
    executablePath: testSettings.CHROMIUM_PATH,
    args: chromiumArgs,
  });
  try {
    const flowId = await benchFlowId(product.url);
    // A phone's browser over HTTPS asks for brotli; Chromium asks for it on http://127.0.0.1 only
    // if told, so the header is set as a phone would send it.
    for (const [route, url, shown] of [
      ['/', `${product.url}/`, { selector: 'main a[href]' }],
      [
        `/verify/${flowId}`,
        `${product.url}/verify/${encodeURIComponent(flowId)}`,
        // The welcome screen (the data notice to agree to) is what opens.
        { selector: 'button', text: 'Agree and start' },
      ],
    ] as const) {
      // A fresh context each: nothing cached.
      const context = await browser.newContext({
        extraHTTPHeaders: { 'accept-encoding': 'gzip, deflate, br' },
      });
      const files = await firstScreenWeight(await context.newPage(), url, shown);
      printFirstScreen(route, files);
      if (weights) compareWithBuild(weights, route === '/' ? '/' : '/verify/:flowId', files);
      await context.close();
    }
    if (weights) printLazySteps(weights);

    const results: { profile: NetworkProfile; runs: FirstScreenRun[] }[] = [];
    for (const profile of phoneProfiles) {
      const runs: FirstScreenRun[] = [];
      for (let run = 0; run < FIRST_RUNS; run++)
        runs.push(
          await timeFirstScreen(
            browser,
            `${product.url}/verify/${encodeURIComponent(flowId)}`,
            'Agree and start',
            profile,
          ),
        );
      results.push({ profile, runs });
    }
    printFirstScreenRuns(
      `First screen of /verify/${flowId} until "Agree and start" is usable (390×844, cache off, ${FIRST_RUNS} runs):`,
      results,
    );
    if (FIRST_SCREEN_ONLY) return;

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
    const stalls: Stall[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      decodeMs.push((await checks.evaluate((p) => window.captureHarness.timeDecode(p), path)).ms);
      const run = await checks.evaluate(
        (p) => window.captureHarness.timeCheckImage(p, { kind: 'document' }),
        path,
      );
      checkMs.push(run.ms);
      stalls.push(run);
    }
    const workers = await checks.evaluate(() => window.captureHarness.workerUrls);
    const outBytes = warm.outputBytes ?? 0;
    console.log(
      `\ncheckImage on a 12 MP JPEG (4000×3000, ${kB(warm.inputBytes)}), median of ${ROUNDS} rounds:`,
    );
    console.log(`  plain decode on the page (baseline)  ${median(decodeMs).toFixed(0)} ms`);
    console.log(
      `  check + compress                     ${median(checkMs).toFixed(0)} ms  (${(median(checkMs) / median(decodeMs)).toFixed(1)}× the decode; target ≤ ${CHECK_TARGET_MS} ms: ${median(checkMs) <= CHECK_TARGET_MS ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  output ${warm.result.width}×${warm.result.height}, ${kB(outBytes)}: ${(((warm.inputBytes - outBytes) / warm.inputBytes) * 100).toFixed(1)}% of the bytes saved (${(warm.inputBytes / Math.max(1, outBytes)).toFixed(1)}× smaller)`,
    );
    const idle: Stall[] = [];
    for (let round = 0; round < ROUNDS; round++)
      idle.push(await checks.evaluate((ms) => window.captureHarness.idleStalls(ms), median(checkMs)));
    printStalls('on an idle page, as long (baseline)', idle);
    printStalls('during a check', stalls);
    console.log(`  workers started: ${workers.length} (${workers.join(', ')})`);

    const camera = await checks.evaluate((rounds) => window.captureHarness.timeCameraCheck(rounds), ROUNDS);
    const baseMs = median(camera.baseline.map((r) => r.ms));
    const pipeMs = median(camera.pipeline.map((r) => r.ms));
    console.log(
      `\nCamera photo checked, shutter to answer (fake camera ${camera.width}×${camera.height}), median of ${ROUNDS} rounds:`,
    );
    console.log(
      `  page canvas → JPEG → checkImage (previous path, baseline)  ${baseMs.toFixed(0)} ms  (${camera.baseline[0]?.result})`,
    );
    console.log(
      `  video frame → photo worker (captureFrame + checkImage)     ${pipeMs.toFixed(0)} ms  (${(baseMs / pipeMs).toFixed(1)}× faster; target ≤ ${CAMERA_TARGET_MS} ms: ${pipeMs <= CAMERA_TARGET_MS ? 'met' : 'MISSED'})`,
    );
    printStalls('during the previous path', camera.baseline);
    printStalls('during a capture', camera.pipeline);
  } finally {
    await browser.close();
    await harness.close();
    await stopNode(product.child);
  }
}

await main();
