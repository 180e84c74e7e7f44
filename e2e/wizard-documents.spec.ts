import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { makeNotDocuments } from '../scripts/make-not-documents';
import { onScreen } from './fixtures/on-screen';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';

/** A sample card photographed on a table: a grey margin round it, another picture of the same side. */
const onTable = (file: string) =>
  sharp(samplePath(file))
    .extend({ top: 90, bottom: 90, left: 120, right: 120, background: '#5a5550' })
    .jpeg({ quality: 90 })
    .toBuffer();

/** The DNI back with its PDF417 covered (a sticker, a thumb): the side is right, its barcode unseen. */
const barcodeCovered = () =>
  sharp(samplePath('ar-national-id-back.jpg'))
    .composite([
      {
        input: { create: { width: 600, height: 230, channels: 3, background: '#e4efe2' } },
        left: 370,
        top: 320,
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();

// A photo of a face is no identity document: the document finder (OpenCV, the shared rules of
// src/checks/document/document-outline.ts) refuses it in the browser, and the service refuses it too. On the
// back step the real cause is named before "same side", and a side showing what only the other
// side shows is the other side (`judgeSide`, src/checks/document/document-side-rules.ts).
/** The generated screenshot of a page of text: print, but no portrait, zone or barcode. */
const screenshotOfText = async () =>
  (await makeNotDocuments(['text-page-phone.png'])).find((p) => p.name === 'text-page-phone.png')!;

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

  test('a screenshot of text has print but no portrait: refused at capture, said in each language', async ({
    page,
  }) => {
    // The outline takes a page of print filling the frame for a scan; an identity front must show
    // a portrait, a zone or a barcode (`judgeSide`, src/checks/document/document-side-rules.ts), looked for
    // here as in the service.
    const screenshot = await screenshotOfText();
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    const alert = await wizard.uploadRefused({
      name: screenshot.name,
      mimeType: 'image/png',
      buffer: screenshot.bytes,
    });
    await expect(alert).toContainText('We could not recognise this document.');
    await expect(wizard.button('Continue')).toBeDisabled();
    await wizard.expectAccessible('a screenshot refused as a document at capture');
    await page.getByLabel('Language').selectOption('es');
    await expect(page.getByRole('alert')).toContainText('No reconocimos este documento.');
    await page.getByLabel('Idioma').selectOption('pt');
    await expect(page.getByRole('alert')).toContainText('Não reconhecemos este documento.');
  });

  test('the DNI front photographed from a screen is refused at capture as a screen, then the card is taken', async ({
    page,
  }) => {
    // The screen's colour ripples (e2e/fixtures/on-screen.ts), looked for in the document worker by
    // the service's rule (src/checks/document/screen-photo.ts), before what the screen shows.
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    const alert = await wizard.uploadRefused({
      name: 'front-on-a-laptop.jpg',
      mimeType: 'image/jpeg',
      buffer: await onScreen(samplePath('ar-national-id-front.jpg')),
    });
    await expect(alert).toContainText('This looks like a photo of a screen.');
    await expect(wizard.button('Continue')).toBeDisabled();
    await wizard.upload('ar-national-id-front.jpg');
    await expect(wizard.button('Continue')).toBeEnabled();
  });

  test('where the browser cannot look for a portrait (its face models do not load), the service refuses the screenshot', async ({
    page,
  }) => {
    const models = /\/models\/human\//;
    await page.route(models, (route) => route.abort());
    const screenshot = await screenshotOfText();
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    await page
      .getByLabel('Upload a photo (JPEG or PNG)')
      .setInputFiles({ name: screenshot.name, mimeType: 'image/png', buffer: screenshot.bytes });
    await expect(page.getByRole('figure').getByText(screenshot.name, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await wizard.continue();
    await wizard.upload('ar-national-id-back.jpg');
    await wizard.continue();
    await page.unroute(models);
    await wizard.selfie();
    await wizard.send();
    await expect(wizard.heading()).toHaveText('Some captures need to be taken again');
    const front = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Identity document: Front side' }) });
    await expect(front).toContainText('We could not recognise this document.');
  });

  test('on the back step: the front is the other side, a back without its barcode is named for it, the same picture is the same side', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.continue(); // the document choice
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    // The front photographed again, on a table: another picture, whose portrait only a front shows.
    const alert = await wizard.uploadRefused({
      name: 'front-on-a-table.jpg',
      mimeType: 'image/jpeg',
      buffer: await onTable('ar-national-id-front.jpg'),
    });
    await expect(alert).toContainText('This is the other side of the document.');
    await expect(alert).not.toContainText('same side');
    await page.getByLabel('Language').selectOption('es');
    await expect(page.getByRole('alert')).toContainText('Este es el otro lado del documento.');
    await page.getByLabel('Idioma').selectOption('pt');
    await expect(page.getByRole('alert')).toContainText('Este é o outro lado do documento.');
    await page.getByLabel('Idioma').selectOption('en');
    // A passport's data page shows a portrait too: not a back.
    const passport = await wizard.uploadRefused(samplePath('ar-passport.jpg'));
    await expect(passport).toContainText('This is the other side of the document.');
    // A back whose barcode is covered: the barcode is the cause, not the side.
    const covered = await wizard.uploadRefused({
      name: 'back-barcode-covered.jpg',
      mimeType: 'image/jpeg',
      buffer: await barcodeCovered(),
    });
    await expect(covered).toContainText('The barcode on the document cannot be seen.');
    await expect(covered).not.toContainText('same side');
    // The front's very picture again is the same side.
    const again = await wizard.uploadRefused(samplePath('ar-national-id-front.jpg'));
    await expect(again).toContainText('This looks like the same side as before.');
    await wizard.upload('ar-national-id-back.jpg');
    await expect(wizard.button('Continue')).toBeEnabled();
  });
});
