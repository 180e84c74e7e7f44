import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { productEnv } from '../playwright.config';
import { freePort } from './fixtures/free-port';
import { startProduct } from './fixtures/second-product';
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
  product = await startProduct(
    {
      ...productEnv(port, await freePort(), dataDir),
      DEMO_SCENARIOS: 'off',
      // Its checks load at the first send-input: at start they cost a loaded machine minutes
      // beside the run's own product and browsers (it once did not answer within 120 s).
      LOAD_CHECKS_AT_START: 'off',
    },
    port,
  );
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
