import { expect, test } from '@playwright/test';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';

// A failed input of each error-code family, from the scenario samples: its prompt, the button
// back to exactly that capture, and a later request with only what still needs sending.
test.describe('wizard: retakes', () => {
  // Issue 35 item 4: one send reports every input's own retake; only the back waits for its front.
  test('documentPhoto and selfiePhoto at once; the back held behind its front goes again with it', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('ar-national-id');
    await wizard.documentSides('document-cropped-document.jpg', 'ar-national-id-back.jpg');
    await wizard.selfie('selfie-sun-glasses.jpg');
    await wizard.send();
    await expect(wizard.heading()).toHaveText('Some captures need to be taken again');
    await expect(page.getByText('Part of the document is cut off.')).toBeVisible();
    await expect(page.getByText(/Move back a little so the whole document/)).toBeVisible();
    await expect(page.getByText('You seem to be wearing sunglasses.')).toBeVisible();
    // The front and the selfie go again, and with them the back the service set aside behind its
    // front: the screen says so, and promises no "only these".
    await expect(wizard.failuresIntro()).toHaveText(
      '2 captures were not accepted. Follow the advice below and take them again.',
    );
    const waiting = page.getByRole('region', { name: 'Also sent again, unchanged' });
    await expect(waiting).toContainText('you do not need to take it again');
    await expect(waiting.getByRole('listitem')).toHaveText(['Identity document: Back side']);
    await wizard.expectAccessible('failures');
    // The same in Spanish and Portuguese, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await wizard.language('es');
    await expect(wizard.failuresIntro()).toHaveText(
      '2 capturas no fueron aceptadas. Sigue los consejos de abajo y repítelas.',
    );
    await expect(page.getByRole('region', { name: 'También se envían de nuevo, sin cambios' })).toContainText(
      'no hace falta repetirlo',
    );
    await wizard.screenshot('failures-held-back-es');
    await wizard.language('pt');
    await expect(wizard.failuresIntro()).toHaveText(
      '2 capturas não foram aceitas. Siga as dicas abaixo e refaça.',
    );
    await expect(page.getByRole('region', { name: 'Também enviados de novo, sem mudanças' })).toContainText(
      'não é preciso refazê-lo',
    );
    await wizard.screenshot('failures-held-back-pt');
    await wizard.language('en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await wizard.screenshot('failures-held-back-en');
    await wizard.button('Take again: Identity document: Front side').click();
    await expect(page.getByRole('alert').first()).toContainText('This capture was not accepted');
    await expect(page.getByRole('heading', { name: 'Front of your national ID card' })).toBeVisible();
    await wizard.expectAccessible('retake');
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    await wizard.button('Take again: Selfie').click();
    await wizard.selfie('selfie.jpg');
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
    // The ✓ of a final "ok" is white on its green disc, not green on green (issue 35): the page's
    // own styles, on a mark of that tone whatever this verification's status is by now.
    const colours = await page.evaluate(() => {
      const mark = document.createElement('span');
      mark.className = 'done-icon ok';
      document.body.append(mark);
      const style = getComputedStyle(mark);
      const both = [style.color, style.backgroundColor];
      mark.remove();
      return both;
    });
    expect(colours).toEqual(['rgb(255, 255, 255)', 'rgb(4, 120, 87)']);
    const second = await wizard.sentInputs(1);
    expect(second.inputs.map((i) => [i.inputType, i.data.page ?? null])).toEqual([
      ['document-photo', 'front'],
      ['document-photo', 'back'],
      ['selfie-photo', null],
    ]);
  });

  test('selfiePhoto and a side the browser refuses at the send: one screen, only they go again', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    // The front is taken again, with the back's picture: alone it passes; beside the back it is
    // the same side twice, which the browser tells at the send instead of sending it.
    await wizard.button('Back').click();
    await wizard.button('Back').click();
    await wizard.upload('ar-national-id-back.jpg');
    await wizard.continue();
    await wizard.continue();
    await wizard.selfie('selfie-sun-glasses.jpg');
    await wizard.send();
    await expect(wizard.heading()).toHaveText('Some captures need to be taken again');
    // Nothing was set aside behind them: only the retakes go.
    await expect(wizard.failuresIntro()).toHaveText(
      '2 captures were not accepted. Follow the advice below and take them again. Only the captures you take again will be sent.',
    );
    await expect(page.getByRole('region', { name: 'Also sent again, unchanged' })).toHaveCount(0);
    const front = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Identity document: Front side' }) });
    await expect(front).toContainText('This looks like the same side as before.');
    await expect(front).toContainText('Found on this device before sending; it was not sent.');
    const selfie = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Selfie' }) });
    await expect(selfie).toContainText('You seem to be wearing sunglasses.');
    await expect(selfie).not.toContainText('Found on this device');
    await wizard.expectAccessible('failures found here and by the service');
    await wizard.expectNamesMatchText('failures found here and by the service');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await wizard.screenshot('failures-all-at-once');
    }
    // Nothing the browser refused was sent: the back and the selfie only.
    const first = await wizard.sentInputs(0);
    expect(first.inputs.map((i) => [i.inputType, i.data.page ?? null])).toEqual([
      ['document-photo', 'back'],
      ['selfie-photo', null],
    ]);
    await wizard.button('Take again: Identity document: Front side').click();
    await expect(page.getByRole('alert').first()).toContainText('This looks like the same side as before.');
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.continue();
    await wizard.button('Take again: Selfie').click();
    await wizard.expectStep('Selfie');
    await expect(page.getByRole('alert').first()).toContainText('Take off your sunglasses');
    await wizard.selfie('selfie.jpg');
    await expect(page.getByText('Accepted')).toHaveCount(1);
    await wizard.send();
    await wizard.expectDone();
    const second = await wizard.sentInputs(1);
    expect(second.inputs.map((i) => [i.inputType, i.data.page ?? null])).toEqual([
      ['document-photo', 'front'],
      ['selfie-photo', null],
    ]);
    expect(second.files).toEqual([
      { field: 'document', filename: 'doc-0-front.jpg' },
      { field: 'selfie', filename: 'selfie.jpg' },
    ]);
  });

  test('CustomDocumentPhoto refused before sending, in the service words; voiceVideo after', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('mx-ine-full');
    await wizard.documentSides('mx-ine-front.jpg', 'mx-ine-back.jpg');
    await wizard.upload('video-no-face.mp4', 'Upload a video file');
    await wizard.continue();
    // Three pages where the flow takes a one-page document: the service would surely refuse it
    // (CustomDocumentPhoto.multiPageInputError), so the browser does, with the same prompt.
    const alert = await wizard.uploadRefused(
      samplePath('custom-document-3-pages.pdf'),
      'Upload a file (PDF, JPEG or PNG)',
    );
    await expect(alert).toContainText('This document must be a single page.');
    await expect(alert).toContainText('Upload one page only, as a photo or a one-page PDF.');
    await expect(wizard.button('Continue')).toBeDisabled();
    // A protected PDF: only a bank statement comes with its password, so the service could not open it.
    const locked = await wizard.uploadRefused(
      samplePath('bank-statement-protected.pdf'),
      'Upload a file (PDF, JPEG or PNG)',
    );
    await expect(locked).toContainText('This PDF is protected by a password.');
    await expect(wizard.button('Continue')).toBeDisabled();
    await wizard.upload('custom-proof-of-address.pdf', 'Upload a file (PDF, JPEG or PNG)');
    await wizard.continue();
    await page.getByLabel('CURP').fill('GODE561231HDFRRN09');
    await page.getByLabel('RFC').fill('GODE561231GR8');
    await page.getByLabel('Occupation').selectOption('student');
    await page.getByLabel('I declare that the information I gave is true').check();
    await wizard.continue();
    await wizard.send();
    await expect(page.getByText('No face could be seen in the video.')).toBeVisible();
    await wizard.button('Take again: Selfie video').click();
    // This time a video in which the service finds a face (the fake camera's frames show none;
    // recording itself is covered by capture-checks.spec.ts).
    await wizard.upload('liveness.webm', 'Upload a video file');
    await expect(page.getByRole('figure')).toBeVisible({ timeout: 20_000 });
    await wizard.continue();
    await wizard.send();
    await wizard.expectDone();
    const rounds = await Promise.all([0, 1].map((n) => wizard.sentInputs(n)));
    expect(rounds[0].inputs.map((i) => i.inputType)).toEqual([
      'document-photo',
      'document-photo',
      'selfie-video',
      'custom-document-photo',
      'custom-fields',
    ]);
    // The one-page PDF went, never the three-page one.
    const customDocument = rounds[0].files.find((f) => f.field === 'custom-document');
    expect(rounds[0].inputs[3].data.filename).toBe(customDocument?.filename);
    expect(customDocument?.filename).toMatch(/\.pdf$/);
    // Only the recorded video goes again: the inputs after it were checked on their own.
    expect(rounds[1].inputs.map((i) => i.inputType)).toEqual(['selfie-video']);
    expect(rounds[1].files[0]).toEqual({
      field: 'video',
      filename: expect.stringMatching(/^video\.(webm|mp4)$/),
    });
  });

  test('bankDocument after a service outage: request-level error screen, retry, retake', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.start('br-bank');
    await page.getByRole('radio', { name: 'Driving licence' }).check();
    await wizard.continue();
    await wizard.upload('br-driving-license-front.jpg');
    await wizard.continue();
    await wizard.upload('br-driving-license-back.jpg');
    await wizard.continue();
    await wizard.selfie();
    await wizard.upload('custom-proof-of-income-front.png', 'Upload a file (PDF, JPEG or PNG)');
    await wizard.continue();
    await page.getByLabel('Bank', { exact: true }).selectOption('br-banco-exemplo');
    await wizard.upload('bank-statement-edited.pdf', 'Upload a file (PDF, JPEG or PNG)');
    await wizard.continue();
    // The first attempt meets a service that is down.
    await page.route('**/send-input', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'upstream.unavailable', type: 'SystemError', message: 'down' }),
      }),
    );
    await wizard.button('Send').click();
    await expect(page.getByRole('alert')).toContainText('The service is not available right now');
    await wizard.expectAccessible('request error');
    await page.unroute('**/send-input');
    await wizard.button('Try again').click();
    await expect(page.getByText('This statement seems to have been edited.')).toBeVisible();
    await wizard.button('Take again: Bank statement').click();
    await wizard.upload('bank-statement.pdf', 'Upload a file (PDF, JPEG or PNG)');
    await wizard.continue();
    await wizard.send();
    await wizard.expectDone();
  });
});
