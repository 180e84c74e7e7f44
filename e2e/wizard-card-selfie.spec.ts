import { expect, test } from '@playwright/test';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';

// Issue 35 item 1: the DNI's front uploaded at the selfie step was accepted, and the verification
// ended Verified with its printed portrait matched against itself. The browser refuses a photo of
// a document as the selfie (`selfieShowsDocument`, the service's rule) before anything is sent, on
// a phone and on a laptop; the person's selfie then passes and the verification is sent.

for (const [device, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['laptop', { width: 1280, height: 800 }],
] as const) {
  test(`the DNI's front at the selfie step is refused in the browser (${device})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.expectStep('Selfie');

    const refused = await wizard.uploadRefused(samplePath('ar-national-id-front.jpg'));
    await expect(refused).toContainText('This photo shows a document or a printed photo, not your face.');
    await expect(refused).toContainText('take a selfie of your own face');
    await expect(page.getByRole('figure')).toHaveCount(0);
    await wizard.expectAccessible(`card refused as the selfie (${device})`);

    await wizard.upload('selfie.jpg');
    await wizard.continue();
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
    // One send, after the refusal: the card never left the browser.
    const { inputs, count } = await wizard.sentInputs(0);
    expect(count).toBe(1);
    expect(inputs.map((i) => i.inputType)).toContain('selfie-photo');
  });
}
