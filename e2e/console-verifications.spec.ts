import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { CreatedVerification } from '@/shared/contract/bff-api';
import { ageToday, ConsolePage } from './fixtures/console-page';
import { sample, samplePath } from './fixtures/samples';
import { mxCustomFieldsInputs, sendInputForm, type UploadPart } from './fixtures/send-input-form';
import { WizardPage } from './fixtures/wizard-page';

test.use({ locale: 'en-US' });

const flowName = 'Argentina: national ID and selfie';

test('flows: merits readable, demo link, copyable phone link and QR code', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  // The wizard's first screen loads none of the console's code.
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => path.includes('console'))).toEqual([]);

  const staff = new ConsolePage(page);
  await staff.openLoggedIn('/console/flows');
  expect(scripts.filter((path) => path.includes('console-app'))).toHaveLength(1);
  // A compact table: one row per flow, its details on demand.
  const flows = page.getByRole('table', { name: 'Flows and what each asks for' });
  const row = (name: string) => flows.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  for (const name of [
    flowName,
    'Passport and proof of residency',
    'Brazil: ID or driving licence, income proof and bank statement',
  ]) {
    await expect(row(name)).toBeVisible();
  }
  await expect(row(flowName)).toContainText('Document verification · Biometric verification');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `test-results/screenshots/console-flows-${width}.png`, fullPage: true });
  }
  const details = row(flowName).getByRole('button', { name: `Details (${flowName})` });
  await expect(details).toHaveAttribute('aria-expanded', 'false');
  await details.click();
  await expect(row(flowName).getByRole('button', { name: `Hide details (${flowName})` })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  const card = page.getByRole('region', { name: `Details of ${flowName}` });
  const documents = card.getByRole('table', { name: 'Documents asked for, in order' });
  await expect(documents.getByRole('row').nth(1)).toHaveText(/National ID card.*Argentina.*PDF417 barcode/);
  await expect(card.getByRole('heading', { name: 'Biometric verification' })).toBeVisible();
  await expect(card.getByText('A selfie photo, matched against the document')).toBeVisible();
  await expect(
    row(flowName).getByRole('link', { name: `Start demo of ${flowName} (opens in a new tab)` }),
  ).toHaveAttribute('href', '/verify/ar-national-id');

  const link = `${baseURL}/verify/ar-national-id`;
  await expect(card.getByLabel('Link to the flow')).toHaveValue(link);
  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Link copied to the clipboard.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  await card.getByRole('button', { name: 'Show QR code' }).click();
  const qr = card.getByRole('img', { name: `QR code that opens the flow ${flowName} on a phone` });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({
      path: `test-results/screenshots/console-flow-details-${width}.png`,
      fullPage: true,
    });
  }

  // Other flows are described too: custom fields, custom documents, bank data.
  for (const name of [/^Mexico/, /^Brazil/]) {
    await flows
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name }) })
      .getByRole('button', { name: /^Details/ })
      .click();
  }
  const mexico = page.getByRole('region', { name: /^Details of Mexico/ });
  await expect(mexico.getByText('A liveness video')).toBeVisible();
  await expect(mexico.getByRole('table', { name: /^Form fields/ })).toBeVisible();
  const brazil = page.getByRole('region', { name: /^Details of Brazil/ });
  await expect(brazil.getByRole('heading', { name: 'Bank account data' })).toBeVisible();

  expect(await staff.seriousViolations()).toEqual([]);
  await staff.expectFitsNarrowScreens();
});

test('a demo started from the console shows up live and reads well', async ({ page, context }) => {
  // Two tabs, a wizard run with in-browser image checks and three axe scans: room for a loaded CI
  // machine (on a 2-core machine at half the speed of others it took 120 s with three other tests).
  test.setTimeout(240_000);
  const staff = new ConsolePage(page);
  await staff.openLoggedIn('/console/flows');

  // Start the demo: the wizard opens in a second tab; the verification it creates is noted.
  const card = page
    .getByRole('table', { name: 'Flows and what each asks for' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: flowName }) });
  const created = context.waitForEvent('response', {
    predicate: (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/verifications',
    timeout: 30_000,
  });
  const [second] = await Promise.all([
    context.waitForEvent('page'),
    card.getByRole('link', { name: `Start demo of ${flowName} (opens in a new tab)` }).click(),
  ]);
  await second.waitForLoadState();
  expect(new URL(second.url()).pathname).toBe('/verify/ar-national-id');

  // The console's list is open (and stays unreloaded) while the flow is completed in the other tab.
  await staff.goTo('Verifications');
  await expect(page.getByText('Live updates on')).toBeVisible();
  await page.evaluate(
    () => ((window as unknown as { consoleNotReloaded: boolean }).consoleNotReloaded = true),
  );

  // The person's side, driven through the wizard's UI by role and label.
  const wizard = new WizardPage(second);
  await wizard.consent();
  await wizard.expectStep('Identity document');
  await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
  await wizard.expectStep('Selfie');
  await wizard.selfie();
  expect((await wizard.send()).status()).toBe(201);
  await wizard.expectDone();
  const { verificationId } = (await (await created).json()) as CreatedVerification;

  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: verificationId }) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(flowName);
  await expect(row.getByText(/^(Verified|Review needed|Rejected)$/)).toBeVisible({ timeout: 20_000 });
  expect(
    await page.evaluate(() => (window as unknown as { consoleNotReloaded?: boolean }).consoleNotReloaded),
  ).toBe(true);

  // Filters: by status and by flow.
  const status = (await row.getByText(/^(Verified|Review needed|Rejected)$/).textContent()) ?? '';
  await page.getByLabel('Status').selectOption('pending');
  await expect(row).toHaveCount(0);
  await page.getByLabel('Status').selectOption({ label: status });
  await page.getByLabel('Flow').selectOption({ label: flowName });
  await expect(row).toBeVisible();
  expect(await staff.seriousViolations()).toEqual([]);
  await staff.expectFitsNarrowScreens();
  // At 390 px the list's columns do not fit: it says so and scrolls sideways by keyboard too (item 17).
  const list = page.getByRole('table', { name: 'Verifications, newest first' });
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByText('Scroll the table sideways to see all its columns.')).toBeVisible();
  const scroller = page.getByRole('region', { name: 'Verifications, newest first' });
  await scroller.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expect(list.getByRole('columnheader', { name: 'Last event' })).toBeAttached();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText('Scroll the table sideways to see all its columns.')).toHaveCount(0);

  // One verification, readably.
  await row.getByRole('link', { name: verificationId }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Verification ${verificationId}` })).toBeVisible();
  const person = sample('ar-national-id-front.jpg').person!;
  const document = page.getByRole('article', { name: 'National ID card · Argentina' });
  const fields = document.getByRole('group', { name: 'Fields read' });
  const field = (term: string) => ConsolePage.definition(fields, term);
  await expect(field('Full name')).toHaveText(person.fullName);
  await expect(field('Document number')).toHaveText(person.documentNumber!);
  await expect(field('Date of birth')).toContainText(person.dateOfBirth!);

  const computed = page.getByRole('region', { name: 'Computed values' });
  await expect(ConsolePage.definition(computed, 'Age')).toHaveText(`${ageToday(person.dateOfBirth!)} years`);
  await expect(ConsolePage.definition(computed, 'National ID card expired')).toHaveText('Not expired');

  const photo = document.getByRole('img', { name: 'National ID card, front' });
  await photo.scrollIntoViewIfNeeded();
  await expect(photo).toHaveAttribute('src', /^\/api\/staff\/media\//);
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);

  const events = page.getByRole('table', { name: 'Webhook events received for this verification' });
  await expect(events.getByRole('row').filter({ hasText: 'Verification completed' })).toContainText(
    'Valid signature',
  );
  const steps = page.getByRole('region', { name: 'Steps' });
  // Data keys by their names, not raw keys ("IP address", never "Ip"); the face match in percent.
  await expect(ConsolePage.definition(steps, 'IP address')).toHaveText('127.0.0.1');
  await expect(steps.getByText(/^Ip$/)).toHaveCount(0);
  const faceMatch = document.getByRole('article', { name: 'Face match' });
  if (await faceMatch.count())
    await expect(ConsolePage.definition(faceMatch, 'Score')).toHaveText(/^\d+(\.\d)?%$/);
  const inputs = page.getByRole('table', { name: 'Each input of the verification and where it stands' });
  await expect(inputs.getByRole('row')).toHaveCount(3);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({
      path: `test-results/screenshots/console-verification-${width}.png`,
      fullPage: true,
    });
  }
  // At 1280 px the steps span the page as the documents do: no empty column beside them.
  const stepsBox = (await steps.boundingBox())!;
  const documentsBox = (await page.getByRole('region', { name: 'Documents' }).boundingBox())!;
  expect(Math.round(stepsBox.width)).toBe(Math.round(documentsBox.width));
  expect(stepsBox.x).toBe(documentsBox.x);

  await page.getByText('Raw JSON').click();
  await expect(page.getByRole('group').filter({ hasText: 'Raw JSON' })).toContainText(verificationId);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the data (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`verification-${verificationId}.json`);

  expect(await staff.seriousViolations()).toEqual([]);
  await staff.expectFitsNarrowScreens();

  // A reviewer's decision needs a reason (issue 22, item 14): the form says so at the field.
  const review = staff.review();
  const decision = status === 'Rejected' ? 'Verified' : 'Rejected';
  const reason =
    decision === 'Rejected'
      ? 'Face does not match the document'
      : 'Checked by hand: person and documents match';
  await expect(staff.reviewHistory()).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Decision history' })).toContainText(
    'No staff decision yet.',
  );
  await review.getByRole('radio', { name: decision, exact: true }).check();
  await review.getByRole('button', { name: 'Save decision' }).click();
  await expect(review.getByLabel('Reason')).toBeFocused();
  await expect(review.getByLabel('Reason')).toHaveAccessibleDescription('Choose a reason for the decision.');
  await expect(review.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  // "Other" says nothing by itself: the note is asked for.
  await review.getByLabel('Reason').selectOption({ label: 'Other (say why in the note)' });
  await review.getByRole('button', { name: 'Save decision' }).click();
  await expect(review.getByLabel('Note (optional)')).toBeFocused();
  await expect(review.getByLabel('Note (optional)')).toHaveAccessibleDescription(/Say why in the note/);
  expect(await staff.seriousViolations()).toEqual([]);

  // At 1280 px, then at 390 px: each decision with its reason joins the history, newest first,
  // with who (this staff session) and when; the status follows through the service.
  const summary = page.getByRole('region', { name: 'Summary' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await staff.decide(decision, reason, 'Compared with the document photo by hand.');
  await expect(ConsolePage.definition(summary, 'Status')).toHaveText(decision);
  const newest = staff.reviewHistory().first();
  await expect(newest).toContainText(decision);
  await expect(newest).toContainText(/By you \(staff-[0-9a-f]{8}\)/);
  await expect(ConsolePage.definition(newest, 'Reason')).toHaveText(reason);
  await expect(ConsolePage.definition(newest, 'Note')).toHaveText(
    'Compared with the document photo by hand.',
  );
  await expect(ConsolePage.definition(newest, 'When')).toHaveText(/\d/);
  await page.screenshot({ path: 'test-results/screenshots/console-decision-1280.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 800 });
  await staff.decide('Review needed', 'Needs a second opinion');
  await expect(ConsolePage.definition(summary, 'Status')).toHaveText('Review needed');
  await expect(staff.reviewHistory()).toHaveCount(2);
  await expect(staff.reviewHistory().first()).toContainText('Review needed');
  await expect(ConsolePage.definition(staff.reviewHistory().first(), 'Reason')).toHaveText(
    'Needs a second opinion',
  );
  await expect(ConsolePage.definition(staff.reviewHistory().first(), 'Note')).toHaveCount(0);
  await expect(ConsolePage.definition(staff.reviewHistory().last(), 'Reason')).toHaveText(reason);
  expect(
    await page.evaluate(() => {
      const root = window.document.documentElement;
      return root.scrollWidth - root.clientWidth;
    }),
  ).toBe(0);
  await page.screenshot({ path: 'test-results/screenshots/console-decision-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  // RETENTION_DAYS after the last change (the default keeps nothing forever).
  await expect(ConsolePage.definition(summary, 'To be deleted on')).toHaveText(/\d/);

  // Erasure, after a confirmation: the verification and its media are gone.
  const photoUrl = (await photo.getAttribute('src'))!;
  // It looks destructive, and its confirmation names the verification and what goes (issue 22, item 15).
  const erase = review.getByRole('button', { name: 'Delete this verification' });
  await expect(erase).toHaveCSS('background-color', 'rgb(185, 28, 28)');
  await erase.click();
  const confirm = page.getByRole('alertdialog', { name: `Delete verification ${verificationId}?` });
  await expect(confirm).toContainText('the document photos, the selfie or video');
  await expect(confirm).toContainText('It cannot be undone.');
  expect(await staff.seriousViolations()).toEqual([]);
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toHaveCount(0);
  await erase.click();
  await confirm.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page).toHaveURL(/\/console\/verifications\?deleted=/);
  await expect(
    page.getByRole('status').filter({ hasText: `Verification ${verificationId} was deleted` }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: verificationId })).toHaveCount(0);
  expect((await page.request.get(photoUrl)).status()).toBe(404);
  expect((await page.request.get(`/api/staff/verifications/${verificationId}`)).status()).toBe(404);
});

test('a pending verification: each input and why it waits, the form answers, in words', async ({ page }) => {
  const staff = new ConsolePage(page);
  await staff.openLoggedIn('/console');
  // The person's side through the BFF's own API, with real files: the INE's front and the form,
  // then a video in which no face can be seen (refused), nothing for the proof of address.
  const created = (await (
    await page.request.post('/api/verifications', { data: { flowId: 'mx-ine-full' } })
  ).json()) as CreatedVerification;
  const sendInput = (inputs: unknown[], files: UploadPart[]) =>
    page.request.post(`/api/identities/${created.identity}/send-input`, {
      multipart: sendInputForm(inputs, files),
    });
  const front = await sendInput(
    [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'MX', page: 'front', filename: 'front.jpg' },
      },
      ...mxCustomFieldsInputs,
    ],
    [{ field: 'document', name: 'front.jpg', bytes: readFileSync(samplePath('mx-ine-front.jpg')) }],
  );
  expect(front.status()).toBe(201);
  const video = await sendInput(
    [{ inputType: 'selfie-video', data: { filename: 'video.mp4' } }],
    [{ field: 'video', name: 'video.mp4', bytes: readFileSync(samplePath('video-no-face.mp4')) }],
  );
  expect(video.status()).toBe(201);

  await page.goto(`/console/verifications/${created.verificationId}`);
  const inputs = page.getByRole('table', { name: 'Each input of the verification and where it stands' });
  const row = (name: string) =>
    inputs.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  await expect(row('Identity document: National ID card')).toContainText('Waiting for the back side.');
  await expect(row('Selfie video')).toContainText('Refused');
  await expect(row('Selfie video')).toContainText(
    'No face in the video. Waiting for the person to take it again.',
  );
  await expect(row('Document: Proof of address')).toContainText('The person has not sent it yet.');
  await expect(row('Form answers')).toContainText('Received');
  const answers = page.getByRole('region', { name: 'Form answers' });
  await expect(ConsolePage.definition(answers, 'CURP')).toHaveText('GODE561231HDFRRN04');
  await expect(ConsolePage.definition(answers, 'Occupation')).toHaveText('Employee');
  expect(await staff.seriousViolations()).toEqual([]);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({
      path: `test-results/screenshots/console-verification-pending-${width}.png`,
      fullPage: true,
    });
  }
  // In Spanish: the same reasons, in its words.
  await page.getByLabel('Language').selectOption('es');
  const entradas = page.getByRole('table', { name: 'Cada entrada de la verificación y su estado' });
  await expect(entradas).toContainText('Esperando que la persona lo vuelva a tomar.');
  await expect(entradas).toContainText('Esperando el reverso.');
  await expect(entradas).toContainText('Ninguna cara en el video.');
  await staff.expectFitsNarrowScreens();
});
