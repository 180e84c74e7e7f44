import { expect, test } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

// Full runs of the demo flows from sample files, with an accessibility scan of every screen.
test.describe('wizard: happy paths', () => {
  // Whole flows with an axe scan per screen: minutes on a machine shared by several runs.
  test.describe.configure({ timeout: 180_000 });
  test('ar-national-id: document sides and a selfie in one send-input, status followed', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('ar-national-id');
    await wizard.expectStep('Identity document');
    await expect(page.getByText('Step 1 of 3')).toBeVisible();
    await wizard.expectAccessible('document choice');
    await wizard.continue();
    await expect(page.getByRole('button', { name: 'Take a photo with the camera' })).toBeVisible();
    await wizard.upload('ar-national-id-front.jpg');
    await wizard.expectAccessible('document front');
    await wizard.continue();
    await wizard.upload('ar-national-id-back.jpg');
    await wizard.continue();
    await wizard.expectStep('Selfie');
    await wizard.expectAccessible('selfie');
    await wizard.selfie();
    await expect(page.getByRole('figure')).toHaveCount(3);
    await expect(page.getByText('ar-national-id-front.jpg')).toBeVisible();
    await wizard.expectAccessible('review');
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
    await wizard.expectAccessible('done');

    const { inputs, files, count } = await wizard.sentInputs(0);
    expect(count).toBe(1);
    expect(inputs).toEqual([
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'AR', page: 'front', filename: 'doc-0-front.jpg' },
      },
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'AR', page: 'back', filename: 'doc-0-back.jpg' },
      },
      { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
    ]);
    expect(files).toEqual([
      { field: 'document', filename: 'doc-0-front.jpg' },
      { field: 'document', filename: 'doc-0-back.jpg' },
      { field: 'selfie', filename: 'selfie.jpg' },
    ]);
    // The status is followed until the verification's checks are done.
    await expect(page.locator('[data-status]')).toHaveAttribute(
      'data-status',
      /verified|reviewNeeded|rejected/,
      {
        timeout: 20_000,
      },
    );
    // The person sees the state and what happens next, not the service's internal checks; the
    // flow does not tell the decision (showDecision off): the business does (issue 22, item 13).
    await expect(
      page.getByRole('status').filter({ hasText: 'Your verification was received' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'What happens next' })).toBeVisible();
    await expect(page.getByText('Document reading')).toHaveCount(0);
  });

  test('mx-ine-full: video upload, one-page PDF, generated form with validation', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    await wizard.start('mx-ine-full');
    await wizard.documentSides('mx-ine-front.jpg', 'mx-ine-back.jpg');
    await wizard.expectStep('Selfie video');
    await expect(page.getByRole('button', { name: 'Record with the camera' })).toBeVisible();
    await wizard.upload('liveness.mp4', 'Upload a video file');
    await wizard.expectAccessible('selfie video');
    await wizard.continue();
    await wizard.expectStep('Proof of address');
    await wizard.upload('custom-proof-of-address.pdf', 'Upload a file (PDF, JPEG or PNG)');
    await wizard.expectAccessible('custom document');
    await wizard.continue();
    await wizard.expectStep('Your details');
    await page.getByLabel('CURP').fill('not a curp');
    await wizard.continue();
    // One message per rule, naming the field and what it must look like.
    await expect(page.getByText('CURP: 18 characters: letters and digits, as on your INE.')).toBeVisible();
    await expect(page.getByText('Fill in RFC.')).toBeVisible();
    await wizard.expectAccessible('custom fields with errors');
    await page.getByLabel('CURP').fill('GODE561231HDFRRN09');
    await page.getByLabel('RFC').fill('GODE561231GR8');
    await page.getByLabel('Occupation').selectOption('employee');
    await wizard.date('Employed since', { day: 1, month: 2, year: 2020 });
    await page.getByLabel('I declare that the information I gave is true').check();
    await wizard.continue();
    await expect(page.getByText('GODE561231HDFRRN09')).toBeVisible();
    const response = await wizard.send();
    expect(response.status()).toBe(201);
    await wizard.expectDone();
    const { inputs, files } = await wizard.sentInputs(0);
    expect(inputs.map((i) => i.inputType)).toEqual([
      'document-photo',
      'document-photo',
      'selfie-video',
      'custom-document-photo',
      'custom-fields',
    ]);
    expect(inputs[3]).toEqual({
      inputType: 'custom-document-photo',
      group: 1,
      data: { type: 'custom-proof-of-address', page: 'front', filename: 'custom-1-front.pdf' },
    });
    expect(inputs[4].data.fields).toContainEqual({
      name: 'curp',
      type: 'atomic',
      atomicFieldParams: {
        type: 'text',
        value: 'GODE561231HDFRRN09',
        mapping: { country: 'MX', key: 'curp' },
      },
    });
    expect(files.map((f) => f.field)).toEqual(['document', 'document', 'video', 'custom-document']);
  });

  test('br-bank: no back side (skip the wait), multi-page PDF, protected bank statement', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    await wizard.recordSendInputs();
    const skips: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && skips.push(new URL(r.url()).pathname));
    await wizard.start('br-bank');
    await page.getByRole('radio', { name: 'National ID card' }).check();
    await wizard.continue();
    await wizard.upload('br-national-id-front.jpg');
    await wizard.continue();
    await wizard.expectAccessible('document back (optional)');
    await wizard.button('My document has no back side').click();
    await wizard.selfie();
    await wizard.expectStep('Proof of income');
    await page.getByRole('radio', { name: 'One PDF file with all pages' }).check();
    await wizard.upload('custom-proof-of-income.pdf', 'Upload a PDF file');
    await wizard.continue();
    await wizard.expectStep('Bank statement');
    await page.getByLabel('Bank', { exact: true }).selectOption({ label: 'Banco Exemplo' });
    await wizard.upload('bank-statement-protected.pdf', 'Upload a file (PDF, JPEG or PNG)');
    const password = page.getByLabel('Password of the PDF');
    await password.fill('wrong-password');
    await wizard.continue();
    await expect(page.getByRole('alert')).toContainText('This password does not open the PDF.');
    await wizard.expectAccessible('bank statement with password');
    await password.fill('specimen-1234');
    await wizard.continue();
    await expect(page.getByText('No back side (the document has none).')).toBeVisible();
    // The answer is held back a moment so that the upload's progress bar can be seen.
    await page.route('**/send-input', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    const response = wizard.send();
    const progress = page.getByRole('progressbar', { name: 'Upload progress' });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', /^\d+$/);
    await wizard.expectAccessible('uploading');
    expect((await response).status()).toBe(201);
    await wizard.expectDone();
    // This flow tells the person the decision (showDecision), once there is one.
    await expect(page.locator('[data-status]')).toHaveAttribute(
      'data-status',
      /verified|reviewNeeded|rejected/,
      {
        timeout: 20_000,
      },
    );
    await expect(page.getByRole('status').filter({ hasText: 'Your verification was received' })).toHaveCount(
      0,
    );
    expect(skips.some((p) => p.endsWith('/skip-upload-wait'))).toBe(true);
    const { inputs } = await wizard.sentInputs(0);
    expect(inputs.map((i) => [i.inputType, i.group ?? null, i.data.page ?? null])).toEqual([
      ['document-photo', 0, 'front'],
      ['selfie-photo', null, null],
      ['custom-document-photo', 1, 'multi'],
      ['financial-information-bank-statement-parsing-request', null, null],
    ]);
    expect(inputs[3].data).toMatchObject({
      institutionId: 'br-banco-exemplo',
      password: 'specimen-1234',
      country: 'BR',
    });
  });
});
