import { mkdir, writeFile } from 'node:fs/promises';
import { chromium, expect, test, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { chromiumArgs } from '../playwright.config';
import { CameraPage } from './fixtures/camera-page';
import { installFrontCamera } from './fixtures/camera/front-camera';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';
import { testSettings } from './fixtures/test-settings';

const launch = (args: string[]): Promise<Browser> =>
  chromium.launch({ executablePath: testSettings.CHROMIUM_PATH, args });

// Chromium's fake camera, fed with a sample document (its default test pattern is too plain to
// pass the blur check): an MJPEG file of a few identical frames, played in a loop.
test('global-passport by camera: rear camera for documents, front for the selfie', async ({ baseURL }) => {
  // Three captures by camera, each checked in the browser: slow on a shared machine.
  test.setTimeout(180_000);
  const dir = `test-results/wizard-camera-${testSettings.E2E_PORT}`;
  await mkdir(dir, { recursive: true });
  const frame = await sharp(samplePath('gb-passport.jpg'))
    .resize(1280, 960, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toBuffer();
  await writeFile(`${dir}/camera.mjpeg`, Buffer.concat([frame, frame, frame]));
  const browser = await launch([...chromiumArgs, `--use-file-for-fake-video-capture=${dir}/camera.mjpeg`]);
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    // The rear camera films the passport; the front camera sees the drawn face (one fake device
    // plays one file: shown the passport, the selfie would be a card, refused as such).
    await installFrontCamera(page);
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    const camera = new CameraPage(page);
    await camera.recordStatus();
    await wizard.start('global-passport');
    await expect(page.getByText('Document type: Passport')).toBeVisible();
    await page.getByLabel('Issuing country').selectOption('GB');
    await wizard.continue();
    const snap = async (subject: 'document' | 'face') => {
      await wizard.button(/^Take (a|another) photo with the camera$/).click();
      // Tips first, then the camera, then the shot shown large to confirm.
      await wizard.button('Open the camera').click();
      await expect(camera.region()).toBeVisible();
      // The document camera takes the passport by itself, framed, still and readable (the shutter
      // is for the selfie here; e2e/document-camera.spec.ts presses it on a document).
      if (subject === 'face') {
        await wizard.expectAccessible('camera open');
        await camera.shutter().click();
      }
      await camera.useShot().click();
      await expect(page.getByRole('figure')).toBeVisible({ timeout: 20_000 });
    };
    await snap('document');
    // The camera's guide read the passport's MRZ from the live frames before taking it.
    expect((await camera.statusLog()).some((s) => s.includes('The document can be read'))).toBe(true);
    await wizard.continue();
    await wizard.expectStep('Proof of address');
    await page.getByLabel('Issuing country').selectOption('US');
    // Nothing is chosen for the person.
    await expect(page.getByLabel('Region or state')).toHaveValue('');
    await page.getByLabel('Region or state').selectOption('NY');
    await wizard.continue();
    await snap('document');
    await wizard.continue();
    await wizard.expectStep('Selfie');
    await snap('face');
    await wizard.continue();
    await expect(page.getByRole('figure')).toHaveCount(3);
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
    const { inputs, files } = await wizard.sentInputs(0);
    expect(
      inputs.map((i) => [i.inputType, i.group ?? null, i.data.country ?? null, i.data.region ?? null]),
    ).toEqual([
      ['document-photo', 0, 'GB', null],
      ['document-photo', 1, 'US', 'NY'],
      ['selfie-photo', null, null, null],
    ]);
    expect(files.map((f) => f.filename)).toEqual(['doc-0-front.jpg', 'doc-1-front.jpg', 'selfie.jpg']);
  } finally {
    await browser.close();
  }
});

test('camera denied: the wizard says so and the file upload still works', async ({ baseURL }) => {
  test.setTimeout(180_000);
  // A browser without the flag that accepts every camera prompt, and a context granting nothing:
  // the camera request is refused as a person refusing it would.
  const browser = await launch(chromiumArgs.filter((arg) => arg !== '--use-fake-ui-for-media-stream'));
  try {
    const context = await browser.newContext({ baseURL, permissions: [] });
    const page = await context.newPage();
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue();
    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expect(page.getByRole('alert')).toContainText('The camera is blocked for this page');
    await expect(page.getByLabel('Upload a photo (JPEG or PNG)')).toBeFocused();
    await wizard.expectAccessible('camera denied');
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    await wizard.expectStep('Identity document');
    await expect(page.getByRole('heading', { name: 'Back of your national ID card' })).toBeVisible();
  } finally {
    await browser.close();
  }
});
