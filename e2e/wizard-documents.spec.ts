import { expect, test } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

// A photo of a face is no identity document: the service's document finder (OpenCV, the shared
// rules of src/shared/document-outline.ts) refuses it, and the wizard asks for it again.
test('a selfie uploaded as the DNI front is refused by the service as no document', async ({ page }) => {
  const wizard = new WizardPage(page);
  await wizard.start('ar-national-id');
  await wizard.documentSides('selfie.jpg', 'ar-national-id-back.jpg');
  await wizard.selfie();
  await wizard.send();
  await expect(wizard.heading()).toHaveText('Some captures need to be taken again');
  const front = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Identity document: Front side' }) });
  await expect(front).toContainText('We could not recognise this document.');
  await wizard.expectAccessible('a face refused as a document');
});
