// `npm run bench:browser-checks`: the wizard's model checks in Chromium (the capture-checks test
// page, e2e/fixtures/capture-harness.html, with the real modules): the selfie face check's model
// load, its time per image once loaded (p50/p99 over BENCH_ROUNDS) and the CPU of Chromium's
// processes per image (what a loaded machine does not inflate), the camera guide running
// (its look at a frame in the face worker, and the page thread's longest stall meanwhile beside an
// idle page's), the passport MRZ check's OCR load and read time, against a plain decode of the same
// file, the document camera's live look (page thread and worker per look, stalls) until it takes
// the photo by itself, and the gzip weight each lazily loaded check adds to its step.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { buildHarness, HARNESS_PAGE, serveHarness } from '../fixtures/capture-harness-server';
import { samplesDir } from '../fixtures/samples';
import { FACE_GUIDE_PAUSE_MS } from '@/features/wizard/capture/use-camera-guide';
import { median, percentile } from './lib/percentile';
import { childrenCpuMs } from './lib/proc-stats';
import { testSettings } from '../fixtures/test-settings';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const work = 'test-results/bench-browser-checks';
const kB = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

/** Files whose step has a brotli budget (the document finder: 1.5 MB): weighed at brotli 11 too. */
const brotliBudgeted = /opencv-.*\.wasm$|document-worker-.*\.js$/;

function gzipOf(dir: string, match: (path: string) => boolean) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (match(path)) {
        const bytes = readFileSync(path);
        raw += bytes.length;
        gzip += gzipSync(bytes, { level: 9 }).length;
        if (brotliBudgeted.test(path))
          brotli += brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }).length;
      }
    }
  };
  walk(dir);
  return { raw, gzip, brotli };
}

const harnessDir = `${work}/harness`;
await buildHarness(harnessDir);
const weights: [string, (p: string) => boolean][] = [
  // The face worker (Human inlined); face-detection-*.js is the same code for the page where
  // workers are missing, fetched there instead.
  [
    'selfie face check: face worker, Human + TensorFlow.js (JS)',
    (p) => /assets\/face-worker-.*\.js$/.test(p),
  ],
  ['selfie face check: page side (JS)', (p) => /assets\/check-faces-.*\.js$/.test(p)],
  ['selfie face check: models (blazeface, facemesh, iris)', (p) => p.includes('/models/human/')],
  [
    'selfie face check: TensorFlow.js wasm (SIMD build used)',
    (p) => p.endsWith('tfjs-backend-wasm-simd.wasm'),
  ],
  [
    'passport MRZ check: glyph reader + mrz + tesseract.js (JS, page side)',
    (p) => /assets\/check-mrz-.*\.js$/.test(p),
  ],
  [
    'passport MRZ check, OCR when needed: tesseract.js worker script',
    (p) => p.endsWith('models/tesseract/worker.min.js'),
  ],
  [
    'passport MRZ check, OCR when needed: tesseract core (one LSTM build)',
    (p) => p.endsWith('tesseract-core-simd-lstm.wasm.js'),
  ],
  [
    'passport MRZ check, OCR when needed: MRZ-trained LSTM data (gzip)',
    (p) => p.endsWith('mrz.traineddata.gz'),
  ],
  [
    'passport MRZ check, a band the MRZ model does not read valid: English LSTM data (gzip)',
    (p) => p.endsWith('eng.traineddata.gz'),
  ],
  [
    'document finder: OpenCV worker (JS) and its wasm',
    (p) => /assets\/(document-worker-.*\.js|opencv-.*\.wasm|check-document-.*\.js)$/.test(p),
  ],
  [
    'DNI back barcode check: zxing-wasm reader (JS + wasm)',
    (p) => /zxing_reader.*\.wasm$|assets\/(reader|check-barcode)-.*\.js$/.test(p),
  ],
];
console.log('Added weight per lazily loaded check (fetched by the step that needs it):');
for (const [label, match] of weights) {
  const { raw, gzip, brotli } = gzipOf(harnessDir, match);
  console.log(
    `  ${label.padEnd(58)} ${kB(gzip).padStart(8)} gzip ${brotli ? `${kB(brotli).padStart(8)} brotli ` : ''}${kB(raw).padStart(8)} raw`,
  );
}

const server = await serveHarness({ '/': harnessDir, '/samples/': samplesDir });
// The fake camera plays the drawn face (e2e/fixtures/camera/README.md), for the guide's looks.
const faceCamera = fileURLToPath(new URL('../fixtures/camera/face.mjpeg', import.meta.url));
const browser = await chromium.launch({
  executablePath: testSettings.CHROMIUM_PATH,
  args: [...chromiumArgs, `--use-file-for-fake-video-capture=${faceCamera}`],
});
try {
  const page = await browser.newPage();
  await page.goto(server.url + HARNESS_PAGE);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  const decode: number[] = [];
  for (let i = 0; i <= ROUNDS; i++)
    decode.push((await page.evaluate(() => window.captureHarness.timeDecode('/samples/selfie.jpg'))).ms);
  decode.shift();
  const timeSelfieFace = (rounds: number) =>
    page.evaluate(([path, n]) => window.captureHarness.timeSelfieFace(path, n), [
      '/samples/selfie.jpg',
      rounds,
    ] as const);
  // Models loaded and one check first; then the CPU of every Chromium process over the rounds (and
  // the one check each call makes first), which a loaded machine does not inflate as it does wall time.
  const loaded = await timeSelfieFace(0);
  const chromiumCpuBefore = childrenCpuMs();
  const face = await timeSelfieFace(ROUNDS);
  const cpuPerCheck = (childrenCpuMs() - chromiumCpuBefore) / (ROUNDS + 1);
  const base = median(decode);
  console.log(`\nSelfie face check in Chromium (selfie.jpg 720×960, ${ROUNDS} rounds):`);
  console.log(
    `  models loaded in ${loaded.loadMs.toFixed(0)} ms (${loaded.thread === 'worker' ? 'face worker' : "page's thread"}, TensorFlow.js ${loaded.backend} backend); verdict ${face.problem ?? 'accepted'}, ${face.faces} face`,
  );
  console.log(`  CPU of Chromium's processes per check (models loaded): ${cpuPerCheck.toFixed(0)} ms`);
  console.log(`  baseline decode      p50 ${base.toFixed(0).padStart(5)} ms`);
  for (const [label, values] of [
    ['detection', face.detectMs],
    ['check (decode+detect)', face.totalMs],
  ] as const) {
    console.log(
      `  ${label.padEnd(20)} p50 ${median(values).toFixed(0).padStart(5)} ms  p99 ${percentile(values, 99).toFixed(0).padStart(5)} ms  ×${(median(values) / base).toFixed(1)} the decode`,
    );
  }
  // The guide running: in the face worker, then the same looks on the page's thread (how it ran
  // before the worker, and the fallback where workers are missing), then an idle page as long; on
  // the fake camera's video (the drawn face, as the product sees it) and on a 1280×960 frame.
  for (const [source, label] of [
    ['camera', 'the live camera (face.mjpeg)'],
    ['/samples/selfie.jpg', 'a 1280×960 frame of selfie.jpg'],
  ] as const) {
    const inWorker = await page.evaluate(
      ([from, rounds]) => window.captureHarness.timeGuideLooks(from, rounds, 'worker'),
      [source, ROUNDS] as const,
    );
    const onPage = await page.evaluate(
      ([from, rounds]) => window.captureHarness.timeGuideLooks(from, rounds, 'page'),
      [source, ROUNDS] as const,
    );
    const idleMs = inWorker.waitMs.reduce((a, b) => a + b, 0) + ROUNDS * FACE_GUIDE_PAUSE_MS;
    const idle = await page.evaluate((ms) => window.captureHarness.idleStalls(ms), idleMs);
    console.log(
      `\nCamera guide running in Chromium on ${label}, ${inWorker.size} (${ROUNDS} looks, ${inWorker.guide}, each followed by a ${FACE_GUIDE_PAUSE_MS} ms pause):`,
    );
    console.log(
      `  ${''.padEnd(40)} look (shrink+detect)   page's wait   the page's thread kept from running at most`,
    );
    console.log(
      `  ${'idle page, as long (baseline)'.padEnd(40)} ${'—'.padStart(20)} ${'—'.padStart(13)}   timer gap ${idle.timerGap.toFixed(0).padStart(4)} ms  frame gap ${idle.frameGap.toFixed(0).padStart(4)} ms  long task ${idle.longTask.toFixed(0).padStart(4)} ms`,
    );
    for (const [where, run] of [
      [`in the ${inWorker.thread === 'worker' ? 'face worker' : "page's thread (no worker)"}`, inWorker],
      ["on the page's thread (before, fallback)", onPage],
    ] as const)
      console.log(
        `  ${where.padEnd(40)} p50 ${median(run.lookMs).toFixed(0).padStart(4)} p99 ${percentile(run.lookMs, 99).toFixed(0).padStart(4)} ms  p50 ${median(run.waitMs).toFixed(0).padStart(4)} ms   timer gap ${run.stalls.timerGap.toFixed(0).padStart(4)} ms  frame gap ${run.stalls.frameGap.toFixed(0).padStart(4)} ms  long task ${run.stalls.longTask.toFixed(0).padStart(4)} ms  (×${(run.stalls.timerGap / idle.timerGap).toFixed(1)} idle)`,
      );
  }
  const documentPhotos = ['ar-national-id-front.jpg', 'gb-passport.jpg', 'selfie.jpg'];
  const found = await page.evaluate(([paths, rounds]) => window.captureHarness.timeDocument(paths, rounds), [
    documentPhotos.map((file) => `/samples/${file}`),
    ROUNDS,
  ] as const);
  console.log(`\nDocument finder in its worker (${documentPhotos.join(', ')}; ${ROUNDS} rounds):`);
  console.log(`  OpenCV loaded with the first look in ${found.loadMs.toFixed(0)} ms`);
  console.log(
    `  ${'look at a photo (decoded at 1024, judged at 512)'.padEnd(40)} p50 ${median(found.lookMs).toFixed(0).padStart(4)} ms  p99 ${percentile(found.lookMs, 99).toFixed(0).padStart(4)} ms`,
  );
  console.log(
    `  verdicts: ${Object.entries(found.verdicts)
      .map(([path, kind]) => `${path.split('/').pop()} ${kind}`)
      .join(', ')}`,
  );
  const mrz = await page.evaluate(([path, rounds]) => window.captureHarness.timeMrz(path, rounds), [
    '/samples/gb-passport.jpg',
    ROUNDS,
  ] as const);
  const verdict = mrz.read.found ? (mrz.read.valid ? `valid, ${mrz.read.issuingState}` : 'invalid') : 'none';
  console.log(`\nPassport MRZ check in Chromium (gb-passport.jpg, ${ROUNDS} rounds):`);
  console.log(`  OCR loaded in ${mrz.loadMs.toFixed(0)} ms; MRZ ${verdict}`);
  console.log(
    `  ${'read (glyph reader, else OCR; parse)'.padEnd(20)} p50 ${median(mrz.readMs).toFixed(0).padStart(5)} ms  p99 ${percentile(mrz.readMs, 99).toFixed(0).padStart(5)} ms  ×${(median(mrz.readMs) / base).toFixed(1)} the decode`,
  );
  console.log(
    `\nLoad average (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${cpus().length} cores`,
  );
} finally {
  await browser.close();
}

// The document camera looking for the document and taking it by itself, on a fake camera that
// films the sample DNI front (e2e/fixtures/camera/document.mjpeg).
const documentCamera = fileURLToPath(new URL('../fixtures/camera/document.mjpeg', import.meta.url));
const cameraBrowser = await chromium.launch({
  executablePath: testSettings.CHROMIUM_PATH,
  args: [...chromiumArgs, `--use-file-for-fake-video-capture=${documentCamera}`],
});
try {
  const page = await cameraBrowser.newPage();
  await page.goto(server.url + HARNESS_PAGE);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  const runs: Awaited<ReturnType<typeof window.captureHarness.timeDocumentCamera>>[] = [];
  for (let i = 0; i < Math.max(1, Math.round(ROUNDS / 3)); i++)
    runs.push(await page.evaluate((ms) => window.captureHarness.timeDocumentCamera(ms), 30_000));
  const idle = await page.evaluate(
    (ms) => window.captureHarness.idleStalls(ms),
    median(runs.map((r) => r.takenMs - r.firstLookMs)),
  );
  const main = runs.flatMap((r) => r.main);
  const worker = runs.flatMap((r) => r.worker);
  const worst = (pick: (s: (typeof runs)[number]['stalls']) => number) =>
    Math.max(...runs.map((r) => pick(r.stalls)));
  console.log(
    `\nDocument camera in Chromium (document.mjpeg 960×720, ${runs.length} runs from the camera opening to the photo taken by itself):`,
  );
  console.log(
    `  taken by itself: ${runs.filter((r) => r.captured).length} of ${runs.length} (${runs[0]?.captured ?? 'none'}); first look answered p50 ${median(runs.map((r) => r.firstLookMs)).toFixed(0)} ms (OpenCV loaded in the first run), taken p50 ${median(runs.map((r) => r.takenMs)).toFixed(0)} ms after opening`,
  );
  console.log(
    `  ${"per look, the page's thread (grab, answer)".padEnd(44)} p50 ${median(main).toFixed(1).padStart(5)} ms  p99 ${percentile(main, 99).toFixed(1).padStart(5)} ms  (${main.length} looks)`,
  );
  console.log(
    `  ${'per look, the document worker (draw, outline, blur, glare)'.padEnd(44)} p50 ${median(worker).toFixed(0).padStart(5)} ms  p99 ${percentile(worker, 99).toFixed(0).padStart(5)} ms`,
  );
  console.log(
    `  the page's thread kept from running at most, looking: timer gap ${worst((s) => s.timerGap).toFixed(0)} ms  frame gap ${worst((s) => s.frameGap).toFixed(0)} ms  long task ${worst((s) => s.longTask).toFixed(0)} ms; idle page as long: timer gap ${idle.timerGap.toFixed(0)} ms  frame gap ${idle.frameGap.toFixed(0)} ms  long task ${idle.longTask.toFixed(0)} ms`,
  );
} finally {
  await cameraBrowser.close();
  await server.close();
}
