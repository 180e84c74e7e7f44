import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { productDist, productEnv } from '../playwright.config';
import { freePort } from './fixtures/free-port';
import { WizardPage } from './fixtures/wizard-page';

// A second product, as `npm start` runs it with its defaults' DEMO_SCENARIOS=off: a sample's
// marker (here `idv-scenario=selfiePhoto.validationError` in the selfie's JPEG comment, over an
// ordinary face) changes nothing; the run's own product (DEMO_SCENARIOS=on) refuses the same file
// with validationError (send-input-samples.test.ts).
let product: ChildProcess | undefined;
let dataDir = '';
let base = '';

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join('test-results', 'e2e-demo-off-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  product = spawn(process.execPath, [`${productDist}-server/start.js`], {
    env: {
      ...process.env,
      ...productEnv(port, await freePort(), dataDir),
      DEMO_SCENARIOS: 'off',
      // Its checks load at the first send-input: at start they cost a loaded machine minutes
      // beside the run's own product and browsers (it once did not answer within 120 s).
      LOAD_CHECKS_AT_START: 'off',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Its own words, in the report when it does not come up.
  let said = '';
  product.stderr?.on('data', (chunk: Buffer) => {
    said = `${said}${chunk.toString()}`.slice(-4000);
    process.stderr.write(chunk);
  });
  const end = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > end || product.exitCode !== null)
      throw new Error(
        `the second product did not start (${product.exitCode !== null ? `it exited with ${product.exitCode}` : 'no answer in 120 s'}); it said: ${said || 'nothing'}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(() => {
  product?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

test('with demo scenarios off, a marker in a file changes nothing', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base });
  const wizard = new WizardPage(await context.newPage());
  await wizard.start('ar-national-id');
  await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
  await wizard.selfie('selfie-validation-error.jpg');
  const response = await wizard.send();
  expect(response.status()).toBe(201);
  // The selfie's pixels show one open-eyed face: accepted, whatever its metadata claims.
  await wizard.expectDone();
  await context.close();
});
