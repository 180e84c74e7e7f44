import { expect, test } from '@playwright/test';
import { makeNotDocuments } from './fixtures/make-not-documents';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';

// A photo of a face is no identity document: the document finder (OpenCV, the shared rules of
// src/shared/document-outline.ts) refuses it in the browser, and the service refuses it too. On the
// back step the real cause is named before "same side".
test.describe('wizard: a face is not a document', () => {
  test('a selfie uploaded as the DNI front is refused at capture; the card is then accepted', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    const alert = await wizard.uploadRefused(samplePath('selfie.jpg'));
    await expect(alert).toContainText('We could not recognise this document.');
    await expect(wizard.button('Continue')).toBeDisabled();
    await wizard.expectAccessible('a face refused as a document');
    await wizard.upload('ar-national-id-front.jpg');
    await expect(wizard.button('Continue')).toBeEnabled();
  });

  test('where the browser cannot look (its document worker does not load), the service refuses it', async ({
    page,
  }) => {
    await page.route(/document-worker[^/]*\.js/, (route) => route.abort());
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
    await expect(front).not.toContainText('Found on this device');
  });

  test('a screenshot of text has print but no portrait: the service refuses it, said in each language', async ({
    page,
  }) => {
    // The browser's outline takes a page of print filling the frame for a scan; the portrait that a
    // front must show is looked for by the service (the face models are not loaded on this step).
    const screenshot = (await makeNotDocuments(['text-page-phone.png'])).find(
      (p) => p.name === 'text-page-phone.png',
    )!;
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    await page
      .getByLabel('Upload a photo (JPEG or PNG)')
      .setInputFiles({ name: screenshot.name, mimeType: 'image/png', buffer: screenshot.bytes });
    await expect(page.getByRole('figure').getByText(screenshot.name, { exact: true })).toBeVisible({
      timeout: 20_000,
    });
    await wizard.continue();
    await wizard.upload('ar-national-id-back.jpg');
    await wizard.continue();
    await wizard.selfie();
    await wizard.send();
    await expect(wizard.heading()).toHaveText('Some captures need to be taken again');
    const front = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Identity document: Front side' }) });
    await expect(front).toContainText('We could not recognise this document.');
    await wizard.expectAccessible('a screenshot refused as a document');
    await page.getByLabel('Language').selectOption('es');
    await expect(
      page.getByRole('listitem').filter({ hasText: 'No reconocimos este documento.' }),
    ).toHaveCount(1);
    await page.getByLabel('Idioma').selectOption('pt');
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Não reconhecemos este documento.' }),
    ).toHaveCount(1);
  });

  test('a passport on the DNI back step is named for its missing barcode, not as the same side', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    const alert = await wizard.uploadRefused(samplePath('ar-passport.jpg'));
    await expect(alert).toContainText('The barcode on the document cannot be seen.');
    await expect(alert).not.toContainText('same side');
    // The front taken again is the same side.
    const again = await wizard.uploadRefused(samplePath('ar-national-id-front.jpg'));
    await expect(again).toContainText('This looks like the same side as before.');
  });
});
