// The wizard's browser checks and camera components in a real Chromium page. They are loaded
// lazily by the product, so a test page (e2e/fixtures/capture-harness.html) is built with the
// app's Vite config and served beside the sample files.
import { mkdir, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import sharp from 'sharp';
import {
  buildHarness,
  HARNESS_PAGE,
  serveHarness,
  type HarnessServer,
} from './fixtures/capture-harness-server';
import { PHOTO_MARKER, twelveMegapixelPhoto } from './fixtures/photo-fixture';
import { isExpired, readsMrz } from '@/checks/mrz/document-reading';
import { hammingDistance } from '@/checks/image/image-metrics';
import { markerOnlyCodes } from '@/shared/error-codes';
import type { DocumentType } from '@/shared/flow';
import { loadSamples, samplesDir } from './fixtures/samples';
import { testSettings } from './fixtures/test-settings';

const port = testSettings.E2E_PORT;
const MARKER = PHOTO_MARKER;

let server: HarnessServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // One folder per Playwright worker: a second worker must not empty the folder the first serves.
  const outDir = `test-results/capture-harness-${port}-${test.info().parallelIndex}`;
  const fixturesDir = `test-results/capture-fixtures-${port}-${test.info().parallelIndex}`;
  await mkdir(fixturesDir, { recursive: true });
  const [, photo, png] = await Promise.all([
    buildHarness(outDir),
    twelveMegapixelPhoto(),
    sharp({ create: { width: 800, height: 800, channels: 3, background: '#2a7' } })
      .png()
      .toBuffer(),
  ]);
  await writeFile(`${fixturesDir}/photo-12mp.jpg`, photo);
  await writeFile(`${fixturesDir}/really-a-png.pdf`, png);
  // The product's own Content-Security-Policy (the BFF serves the SPA with it): the workers, blob:
  // URLs and pdf.js must work under it, not just on a permissive test server.
  const product = await fetch(`http://127.0.0.1:${port}/`);
  const csp = product.headers.get('content-security-policy');
  server = await serveHarness(
    { '/': outDir, '/samples/': samplesDir, '/generated/': fixturesDir },
    csp ? { 'content-security-policy': csp } : {},
  );
});

test.afterAll(async () => {
  await server?.close();
});

async function openHarness(page: Page) {
  await page.goto(server.url + HARNESS_PAGE);
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
}

test('a 12-megapixel photo is compressed in a web worker, upright, above 600×600, without EXIF', async ({
  page,
}) => {
  await openHarness(page);
  const before = server.requests.length;
  const result = await page.evaluate(() =>
    window.captureHarness.checkImageAt('/generated/photo-12mp.jpg', 'IMG_0001.jpg', { kind: 'document' }),
  );
  expect(result).toMatchObject({
    ok: true,
    compressed: true,
    format: 'jpeg',
    type: 'image/jpeg',
    name: 'IMG_0001.jpg',
  });
  if (!result.ok || !('width' in result)) throw new Error('not an image result');
  // Taken sideways (orientation 6): the upload is portrait as shown; its pixels stay as stored,
  // with the orientation as the copy's only EXIF tag (camera make and GPS gone).
  expect({ width: result.width, height: result.height }).toEqual({ width: 1536, height: 2048 });
  expect(result.decoded).toEqual({ width: 1536, height: 2048 });
  expect(result.header).toEqual({ format: 'jpeg', width: 1536, height: 2048, orientation: 6 });
  // The metrics were taken upright: their hash is the hash of the copy as shown (a turned image
  // hashes ~32 of 64 bits apart).
  expect(hammingDistance(result.phash, result.shownPhash)).toBeLessThanOrEqual(4);
  expect(result.text).not.toContain('TestCam');
  expect(result.text).toContain(MARKER);
  expect(result.phash).toMatch(/^[0-9a-f]{16}$/);

  // One decode, the metrics and the JPEG in our own worker (a file of the app), started once and reused.
  const again = await page.evaluate(() =>
    window.captureHarness.checkImageAt('/generated/photo-12mp.jpg', 'IMG_0002.jpg', { kind: 'document' }),
  );
  expect(again).toMatchObject({ ok: true, compressed: true, phash: result.phash });
  const workers = await page.evaluate(() => window.captureHarness.workerUrls);
  expect(workers).toHaveLength(1);
  expect(workers[0]).toMatch(new RegExp(`^${server.url}/assets/photo-worker[^/]*\\.js$`));
  const served = server.requests.slice(before);
  expect(served.filter((path) => /\/assets\/photo-worker[^/]*\.js$/.test(path))).toHaveLength(1);
});

test('the face worker judges selfies and camera frames as the same code on the page does', async ({
  page,
}) => {
  // Human loads twice (in the worker, then on the page) and each selfie is looked at four times.
  test.slow();
  await openHarness(page);
  const selfies = loadSamples()
    .filter((s) => s.field === 'selfie' && /\.(jpe?g|png)$/.test(s.file))
    .map((s) => `/samples/${s.file}`);
  const compared = await page.evaluate((paths) => window.captureHarness.compareFaceThreads(paths), selfies);
  // Human picks the wasm backend (and the same wasm build) in the worker as on the page.
  expect(compared.worker).toEqual({ backend: compared.page, thread: 'worker' });
  expect(compared.page).toMatch(/^wasm\b/);
  for (const row of compared.rows) expect(row.worker, row.path).toEqual(row.page);
  // The samples cover every selfie verdict, so each was compared.
  expect(new Set(compared.rows.map((row) => row.worker.verdict))).toEqual(
    new Set([null, 'client.noFace', 'client.multipleFaces', 'client.closedEyes']),
  );
  const workers = await page.evaluate(() => window.captureHarness.workerUrls);
  expect(workers).toEqual([
    expect.stringMatching(new RegExp(`^${server.url}/assets/face-worker[^/]*\\.js$`)),
  ]);
});

test('without OffscreenCanvas the face check runs on the page, with the same verdicts', async ({ page }) => {
  test.slow();
  await page.addInitScript(() => {
    // @ts-expect-error: a browser without OffscreenCanvas (the photo pipeline falls back too).
    delete window.OffscreenCanvas;
  });
  await openHarness(page);
  const check = (file: string) =>
    page.evaluate(([path, name]) => window.captureHarness.checkImageAt(path, name, { kind: 'selfie' }), [
      `/samples/${file}`,
      file,
    ] as const);
  expect(await check('selfie-no-face.jpg')).toEqual({ ok: false, reason: 'client.noFace' });
  expect(await check('selfie-multiple-faces.jpg')).toEqual({ ok: false, reason: 'client.multipleFaces' });
  expect(await check('selfie.jpg')).toMatchObject({ ok: true });
  expect(await page.evaluate(() => window.captureHarness.preloadFace())).toEqual({
    backend: expect.stringMatching(/^wasm\b/),
    thread: 'page',
  });
  expect(await page.evaluate(() => window.captureHarness.workerUrls)).toEqual([]);
});

test('every sample image gets the answer the service gives for what pixels show', async ({ page }) => {
  // The selfies load the face models and run a detection each, the passports the OCR: more than
  // the default minute.
  test.slow();
  await openHarness(page);
  const pixelCodes: Record<string, string> = {
    'documentPhoto.smallImageSize': 'client.tooSmall',
    'documentPhoto.grayscaleImage': 'client.grayscale',
    'documentPhoto.blurryText': 'client.blurry',
    'documentPhoto.similarImages': 'client.similarSides',
    'selfiePhoto.noFace': 'client.noFace',
    'selfiePhoto.multipleFaces': 'client.multipleFaces',
    'selfiePhoto.closedEyes': 'client.closedEyes',
    // What the document says about itself (MRZ, DNI barcode) is refused with the service's own code
    // (the back without a barcode carries its code as a marker, which the browser leaves to the service).
    'documentPhoto.badPdf417': 'documentPhoto.badPdf417',
    'documentPhoto.noMrz': 'documentPhoto.noMrz',
    'documentPhoto.badMrz': 'documentPhoto.badMrz',
    'documentPhoto.countryMismatch': 'documentPhoto.countryMismatch',
    'documentPhoto.typeMismatch': 'documentPhoto.typeMismatch',
  };
  let readMrz = 0;
  const images = loadSamples().filter((s) => /\.(jpe?g|png)$/.test(s.file) && s.field !== 'video');
  expect(images.length).toBeGreaterThan(20);
  for (const sample of images) {
    const kind =
      sample.field === 'custom-document'
        ? 'custom-document'
        : sample.field === 'selfie'
          ? 'selfie'
          : 'document';
    let otherSide: { phash: string } | undefined;
    if (sample.otherSideFile) {
      const other = await page.evaluate(
        ([path, name]) => window.captureHarness.checkImageAt(path, name, { kind: 'document' }),
        [`/samples/${sample.otherSideFile}`, sample.otherSideFile] as const,
      );
      if (!other.ok || !('phash' in other))
        throw new Error(`${sample.otherSideFile}: ${JSON.stringify(other)}`);
      otherSide = { phash: other.phash };
    }
    // The document side as the wizard's document step passes it: the flow step's checks and the
    // type and country the person chose.
    const side =
      kind === 'document' && sample.docType && sample.country && sample.page !== 'multi'
        ? {
            type: sample.docType as DocumentType,
            country: sample.country,
            page: sample.page ?? 'front',
            requires: sample.requires ?? [],
          }
        : undefined;
    const reads = side
      ? {
          claim: { type: side.type, country: side.country },
          mrz: readsMrz(side),
          pdf417: side.page === 'back' && side.requires.includes('pdf417'),
          pdf417Step: side.requires.includes('pdf417'),
          page: side.page,
        }
      : {};
    if (reads.mrz) readMrz++;
    const result = await page.evaluate(
      ([path, name, opts]) => window.captureHarness.checkImageAt(path, name, opts),
      [
        `/samples/${sample.file}`,
        sample.file,
        { kind, ...(otherSide ? { otherSide } : {}), ...reads },
      ] as const,
    );
    const small = sample.file.includes('small');
    const expected = small ? 'client.tooSmall' : (pixelCodes[sample.expectedCode ?? ''] ?? null);
    const expiry = sample.person?.expiryDate;
    if (expected) expect(result, sample.file).toEqual({ ok: false, reason: expected });
    else if (reads.mrz && expiry && isExpired(expiry)) {
      // The service flags it in `computed`; the browser tells the person at capture.
      expect(result, sample.file).toEqual({
        ok: false,
        reason: 'client.expiredDocument',
        expiryDate: expiry,
      });
    } else {
      if (!result.ok || !('text' in result)) throw new Error(`${sample.file}: ${JSON.stringify(result)}`);
      // Small files go as they are: same name, and the service's scenario marker still inside.
      expect(result.compressed, sample.file).toBe(false);
      expect(result.name).toBe(sample.file);
      if (sample.expectedCode && markerOnlyCodes.includes(sample.expectedCode))
        expect(result.text, sample.file).toContain(`idv-scenario`);
    }
  }
  // The passports' MRZ was read in the browser: valid, corrupted, another country, another type, none.
  expect(readMrz).toBeGreaterThanOrEqual(6);
});

test('wrong formats and oversized files are refused from their bytes', async ({ page }) => {
  await openHarness(page);
  const h = (fn: (harness: Window['captureHarness']) => Promise<unknown>) =>
    page.evaluate(`(${fn.toString()})(window.captureHarness)`);
  expect(await h((x) => x.checkBlob('textAsJpeg'))).toEqual({ ok: false, reason: 'client.wrongFormat' });
  expect(await h((x) => x.checkBlob('oversizedJpeg'))).toEqual({ ok: false, reason: 'client.tooBig' });
  // PNG bytes named .pdf: not a PDF, whatever the name.
  expect(await h((x) => x.inspectPdfAt('/generated/really-a-png.pdf', 'statement.pdf'))).toEqual({
    ok: false,
    reason: 'client.wrongFormat',
  });
  // A PDF where only photos are taken, and a video where a photo is expected.
  expect(
    await h((x) => x.checkImageAt('/samples/custom-proof-of-address.pdf', 'front.jpg', { kind: 'document' })),
  ).toEqual({ ok: false, reason: 'client.pdfNotAllowed' });
  expect(await h((x) => x.checkImageAt('/samples/liveness.mp4', 'selfie.jpg', { kind: 'selfie' }))).toEqual({
    ok: false,
    reason: 'client.wrongFormat',
  });
  expect(await h((x) => x.checkVideoAt('/samples/selfie.jpg'))).toEqual({
    ok: false,
    reason: 'client.videoFormat',
  });
  const pdf = await h((x) =>
    x.checkImageAt('/samples/custom-proof-of-address.pdf', 'proof.pdf', { kind: 'custom-document' }),
  );
  expect(pdf).toMatchObject({ ok: true, format: 'pdf', compressed: false, name: 'proof.pdf' });
});

test('PDFs: a password-protected statement is detected and its password checked; pages are counted', async ({
  page,
}) => {
  await openHarness(page);
  const before = server.requests.length;
  const password = loadSamples().find((s) => s.file === 'bank-statement-protected.pdf')!.password!;
  const protectedPath = '/samples/bank-statement-protected.pdf';
  expect(
    await page.evaluate((p) => window.captureHarness.inspectPdfAt(p, 'statement.pdf'), protectedPath),
  ).toEqual({
    ok: true,
    encrypted: true,
    pageCount: null,
  });
  expect(
    await page.evaluate((p) => window.captureHarness.checkPdfPasswordAt(p, 'wrong-password'), protectedPath),
  ).toEqual({
    ok: false,
  });
  expect(
    await page.evaluate(([p, pw]) => window.captureHarness.checkPdfPasswordAt(p, pw), [
      protectedPath,
      password,
    ] as const),
  ).toEqual({ ok: true, pageCount: 1 });

  const threePages = '/samples/custom-document-3-pages.pdf';
  expect(await page.evaluate((p) => window.captureHarness.inspectPdfAt(p, 'doc.pdf'), threePages)).toEqual({
    ok: true,
    encrypted: false,
    pageCount: 3,
  });
  expect(await page.evaluate((p) => window.captureHarness.inspectPdfAt(p, 'doc.pdf', 1), threePages)).toEqual(
    {
      ok: false,
      reason: 'client.tooManyPages',
    },
  );
  // pdf.js and its worker come from this app, not from a CDN.
  // One pdf.js worker served every check above.
  expect(
    server.requests.slice(before).filter((path) => /\/assets\/pdf\.worker[^/]*\.mjs$/.test(path)),
  ).toHaveLength(1);
});

test('sample videos are accepted with their length when the browser can read it', async ({ page }) => {
  await openHarness(page);
  const webm = await page.evaluate(() => window.captureHarness.checkVideoAt('/samples/liveness.webm'));
  expect(webm).toMatchObject({ ok: true, format: 'webm' });
  if (webm.ok) expect(webm.durationSeconds).toBeGreaterThan(0);
  for (const file of [
    'liveness.mp4',
    'liveness.mov',
    'liveness.3gp',
    'liveness.mkv',
    'liveness-streamed.webm',
  ]) {
    const result = await page.evaluate((p) => window.captureHarness.checkVideoAt(p), `/samples/${file}`);
    expect(result.ok, `${file}: ${JSON.stringify(result)}`).toBe(true);
  }
});

test('the rear camera (fake device) takes a JPEG of at least 600×600, measured from the same frame', async ({
  page,
}) => {
  await openHarness(page);
  await page.evaluate(() => window.captureHarness.mountCamera('environment', 'document'));
  const shutter = page.getByRole('button', { name: 'Take photo' });
  await expect(shutter).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Camera' })).toBeVisible();
  await shutter.click();
  // The photo worker starts on the first shot (its script fetched and compiled): slow on a busy machine.
  await expect
    .poll(() => page.evaluate(() => window.captureHarness.captured ?? window.captureHarness.unavailable), {
      timeout: 30_000,
    })
    .not.toBeNull();
  expect(await page.evaluate(() => window.captureHarness.unavailable)).toBeNull();
  const photo = (await page.evaluate(() => window.captureHarness.captured))!;
  expect(photo.type).toBe('image/jpeg');
  expect(photo.head).toEqual([0xff, 0xd8, 0xff]);
  expect(Math.min(photo.width, photo.height)).toBeGreaterThanOrEqual(600);
  // The photo worker measured the frame it encoded: the metrics are those of this very JPEG.
  expect(photo.measured).toEqual({ width: photo.width, height: photo.height });
  // Unmounting stops the camera.
  await page.evaluate(() => window.captureHarness.unmount());
  await expect(page.getByRole('button', { name: 'Take photo' })).toHaveCount(0);
});

test('the video recorder records a WebM the video check accepts, with retake and use', async ({ page }) => {
  await openHarness(page);
  await page.evaluate(() => window.captureHarness.mountRecorder(1));
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByText(/Recording starts in/)).toBeVisible();
  const retake = page.getByRole('button', { name: 'Record again' });
  await expect(retake).toBeVisible({ timeout: 15_000 });
  await expect(page.getByLabel('Your recording')).toBeVisible();
  await retake.click();
  await page.getByRole('button', { name: 'Start recording' }).click();
  await page.getByRole('button', { name: 'Use this video' }).click({ timeout: 15_000 });
  await expect
    .poll(() => page.evaluate(() => window.captureHarness.recorded), { timeout: 15_000 })
    .not.toBeNull();
  const recorded = (await page.evaluate(() => window.captureHarness.recorded))!;
  expect(recorded, JSON.stringify(recorded)).toMatchObject({
    name: 'selfie-video.webm',
    type: 'video/webm',
    check: { ok: true, format: 'webm' },
  });
  expect(recorded.size).toBeGreaterThan(1000);
});

test('a refused camera and a missing camera are reported as such', async ({ playwright }) => {
  // Without the auto-accept flag headless Chromium refuses the permission; without the fake
  // device this machine has no camera at all.
  for (const [reason, dropped] of [
    ['denied', '--use-fake-ui-for-media-stream'],
    ['missing', '--use-fake-device-for-media-stream'],
  ] as const) {
    const browser = await playwright.chromium.launch({
      executablePath: testSettings.CHROMIUM_PATH,
      args: chromiumArgs.filter((arg) => arg !== dropped),
    });
    try {
      const page = await browser.newPage();
      await openHarness(page);
      await page.evaluate(() => window.captureHarness.mountCamera('user', 'face'));
      await expect.poll(() => page.evaluate(() => window.captureHarness.unavailable)).toBe(reason);
      await expect(page.getByRole('button', { name: 'Take photo' })).toBeDisabled();
    } finally {
      await browser.close();
    }
  }
});

test('the camera speaks Spanish and Portuguese too', async ({ page }) => {
  await openHarness(page);
  await page.evaluate(() => window.captureHarness.setLanguage('es'));
  await page.evaluate(() => window.captureHarness.mountCamera('user', 'face'));
  await expect(page.getByRole('region', { name: 'Cámara' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tomar foto' })).toBeEnabled();
  // The guide looks at the fake camera's green frame: no face, said in the page's language.
  const guide = page.getByRole('region', { name: 'Cámara' }).getByRole('status');
  await expect(guide).toHaveText(/No se ve ninguna cara/, { timeout: 60_000 });
  await page.evaluate(() => window.captureHarness.setLanguage('pt'));
  await expect(page.getByRole('button', { name: 'Tirar foto' })).toBeVisible();
  await expect(page.getByText('Posicione o rosto dentro do oval')).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(/Nenhum rosto à vista/);
});
