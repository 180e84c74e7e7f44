import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Page } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { CameraPage } from './fixtures/camera-page';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';
import { testSettings } from './fixtures/test-settings';

const ocrBPassport = fileURLToPath(new URL('./fixtures/photos/ocr-b-passport.jpg', import.meta.url));

// The checks that need a model or a reader, in the browser before any upload, with the service's
// rules: the fake camera's green test frame is refused as a selfie with the noFace prompt (and the
// camera's guide says so while it is open), two faces with the multipleFaces one; a DNI back
// without its required barcode is refused at capture (and the camera's guide, on the green frame,
// says no document is in view); an expired passport is told with its date and
// one whose MRZ names another country gets the service's prompt; a passport printed in OCR-B is read
// by the glyph reader without fetching the OCR, and the camera's hint for its zone uses no OCR either
// (once it has read a frame);
// a camera that sees a face says
// "ready".

/** The live camera's guide: the status line inside the camera region. */
const cameraGuide = (page: Page) => page.getByRole('region', { name: 'Camera' }).getByRole('status');

/** The guide on the green test frame, after the code readers have read at least one frame of it. */
async function expectNoDocumentOnceRead(page: Page) {
  const camera = new CameraPage(page);
  await expect(cameraGuide(page)).toHaveText(/No document in view/, { timeout: 30_000 });
  await expect.poll(() => camera.codeReads(), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(cameraGuide(page)).toHaveText(/No document in view/);
}

test.describe('wizard: face, barcode and MRZ checks in the browser', () => {
  test('a back without the PDF417 the DNI requires is refused at capture', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue();
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    const alert = await wizard.uploadRefused(samplePath('mx-ine-back.jpg'));
    await expect(alert).toContainText('The barcode on the document cannot be seen.');
    await expect(page.getByRole('figure')).toHaveCount(0);
    // The green test frame shows no document: the guide says so, also once the barcode reader has
    // read a frame (its word waits for a document in view, e2e/document-camera.spec.ts).
    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expectNoDocumentOnceRead(page);
    await wizard.button('Close the camera').click();
    await wizard.upload('ar-national-id-back.jpg');
  });

  test('an expired passport, then one of another country, are refused at capture', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.start('global-passport');
    await page.getByLabel('Issuing country').selectOption('US');
    await wizard.continue();
    // Where the glyph reader does not read a zone alone, the OCR loads with it: more than the usual wait.
    const upload = page.getByLabel('Upload a photo (JPEG or PNG)');
    await upload.setInputFiles(samplePath('us-passport-expired.jpg'));
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('This document expired on March 1, 2021.', { timeout: 60_000 });
    await expect(alert).toContainText('Use a valid document');
    await upload.setInputFiles(samplePath('document-country-mismatch.jpg'));
    await expect(alert).toContainText('This document is not from the country you chose.', {
      timeout: 60_000,
    });
    await expect(page.getByRole('figure')).toHaveCount(0);
    // The choice can be changed from here.
    await wizard.button('Change the document type or country').click();
    await page.getByLabel('Issuing country').selectOption('GB');
    await wizard.continue();
    await wizard.upload('gb-passport.jpg');
  });

  test('a passport printed in OCR-B is read at capture by the glyph reader, the OCR never fetched', async ({
    page,
  }) => {
    const ocrFiles: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/models/tesseract/')) ocrFiles.push(request.url());
    });
    const wizard = new WizardPage(page);
    await wizard.start('global-passport');
    // Its zone names Spain: chosen as British, it is refused with the service's prompt.
    await page.getByLabel('Issuing country').selectOption('GB');
    await wizard.continue();
    const alert = await wizard.uploadRefused(ocrBPassport);
    await expect(alert).toContainText('This document is not from the country you chose.');
    // The prompt sends the person to the button by its name (it sits above the refused capture
    // here, below the prompt on a retake), in each language, on a laptop and on a phone.
    const prompts = [
      [
        'en',
        1280,
        'Change the document type or country',
        'Choose the right country with “Change the document type or country”',
      ],
      [
        'es',
        390,
        'Cambiar el tipo de documento o el país',
        'Elige el país correcto con «Cambiar el tipo de documento o el país»',
      ],
      [
        'pt',
        390,
        'Mudar o tipo de documento ou o país',
        'Escolha o país certo com “Mudar o tipo de documento ou o país”',
      ],
    ] as const;
    for (const [language, width, button, todo] of prompts) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await wizard.language(language);
      await expect(alert).toContainText(todo);
      await expect(alert).not.toContainText(/below|above|abajo|arriba|abaixo|acima/);
      await expect(wizard.button(button)).toBeVisible();
      await wizard.screenshot(`country-mismatch-${language}`);
    }
    await wizard.language('en');
    await wizard.button('Change the document type or country').click();
    await page.getByLabel('Issuing country').selectOption('ES');
    await wizard.continue();
    // The live camera's hint looks with the glyph reader alone (no OCR fetched once it has read a
    // frame); the green test frame shows no document, and the guide says so.
    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expectNoDocumentOnceRead(page);
    await wizard.button('Close the camera').click();
    await page.getByLabel('Upload a photo (JPEG or PNG)').setInputFiles(ocrBPassport);
    await expect(page.getByRole('figure').getByText('ocr-b-passport.jpg', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
    expect(ocrFiles).toEqual([]);
  });

  test('the fake camera frame (no face) is refused at capture, then a selfie with a face passes', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    // The document's portrait count needs no eye openness: the iris model (2.6 MB) waits for the selfie.
    const irisFetches: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/models/human/iris')) irisFetches.push(request.url());
    });
    const faceModelFetched = page.waitForRequest((r) =>
      new URL(r.url()).pathname.startsWith('/models/human/'),
    );
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.expectStep('Selfie');
    await faceModelFetched; // the front's portrait was counted in the browser
    expect(irisFetches).toEqual([]);

    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expect(page.getByRole('region', { name: 'Camera' })).toBeVisible();
    await expect(cameraGuide(page)).toHaveText(/No face in view/, { timeout: 60_000 });
    await wizard.button('Take photo').click();
    await wizard.button('Use this photo').click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('No face could be seen in the selfie.', { timeout: 60_000 });
    await expect(page.getByRole('figure')).toHaveCount(0);

    const twoFaces = await wizard.uploadRefused(samplePath('selfie-multiple-faces.jpg'));
    await expect(twoFaces).toContainText('More than one face appears in the selfie.');
    // Eye openness is read once the iris model has joined the models the documents loaded.
    const closedEyes = await wizard.uploadRefused(samplePath('selfie-closed-eyes.jpg'));
    await expect(closedEyes).toContainText('Your eyes seem closed.');
    expect(irisFetches.length).toBeGreaterThan(0);

    await wizard.upload('selfie.jpg');
    await wizard.continue();
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
  });
});

test('a camera that sees a face: the guide says ready and the selfie passes the face check', async ({
  baseURL,
}) => {
  test.slow();
  // A browser of its own: the fake camera plays the drawn face (e2e/fixtures/camera/README.md).
  const faceCamera = fileURLToPath(new URL('./fixtures/camera/face.mjpeg', import.meta.url));
  const browser = await chromium.launch({
    executablePath: testSettings.CHROMIUM_PATH,
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${faceCamera}`],
  });
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.expectStep('Selfie');
    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expect(cameraGuide(page)).toHaveText(/Hold still: ready to take the photo/, { timeout: 60_000 });
    // The sign before the advice is for the eye: a screen reader reads the advice alone (issue 22, item 12).
    expect(await cameraGuide(page).ariaSnapshot()).toMatch(/^- status: "?Hold still/);
    await wizard.button('Take photo').click();
    await wizard.button('Use this photo').click();
    await expect(page.getByRole('figure')).toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);
  } finally {
    await browser.close();
  }
});
