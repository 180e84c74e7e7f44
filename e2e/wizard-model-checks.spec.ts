import { expect, test } from '@playwright/test';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';

// The checks that need a model or a reader, in the browser before any upload, with the service's
// rules: the fake camera's green test frame is refused as a selfie with the noFace prompt, two faces
// with the multipleFaces one; a DNI back without its required barcode is refused at capture.
test.describe('wizard: face and barcode checks in the browser', () => {
  test('a back without the PDF417 the DNI requires is refused at capture', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue();
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    const alert = await wizard.uploadRefused(samplePath('mx-ine-back.jpg'));
    await expect(alert).toContainText('The barcode on the document cannot be seen.');
    await expect(page.getByRole('figure')).toHaveCount(0);
    await wizard.upload('ar-national-id-back.jpg');
  });

  test('the fake camera frame (no face) is refused at capture, then a selfie with a face passes', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.expectStep('Selfie');

    await wizard.button('Take a photo with the camera').click();
    await wizard.button('Open the camera').click();
    await expect(page.getByRole('region', { name: 'Camera' })).toBeVisible();
    await wizard.button('Take photo').click();
    await wizard.button('Use this photo').click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('No face could be seen in the selfie.', { timeout: 60_000 });
    await expect(page.getByRole('figure')).toHaveCount(0);

    const twoFaces = await wizard.uploadRefused(samplePath('selfie-multiple-faces.jpg'));
    await expect(twoFaces).toContainText('More than one face appears in the selfie.');

    await wizard.upload('selfie.jpg');
    await wizard.continue();
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
  });
});
