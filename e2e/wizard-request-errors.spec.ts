import { expect, test } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

// Request-level answers of send-input (nothing of the request kept): each has its own screen.
test('every request-level failure is explained, and the captures stay for the next try', async ({ page }) => {
  // Nine failures in a row, each with an axe scan: slow on a shared machine.
  test.setTimeout(180_000);
  const wizard = new WizardPage(page);
  await wizard.start('ar-national-id');
  await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
  await wizard.selfie();
  // [status, type, title, action, code (default: the status)]
  const cases: [number | 'network', string, string, string, string?][] = [
    [400, 'IntegrationError', 'The captures could not be sent as they are', 'Try again'],
    [413, 'ValidationError', 'A file is too large', 'Try again'],
    [415, 'ValidationError', 'A file is not in an accepted format', 'Try again'],
    [401, 'AuthError', 'Your session has ended', 'Start again'],
    [403, 'AuthError', 'Your session has ended', 'Start again'],
    [502, 'SystemError', 'The service is not available right now', 'Try again'],
    [503, 'SystemError', 'The service cannot store files right now', 'Try again', 'upstream.storageFull'],
    ['network', '', 'No connection', 'Try again'],
  ];
  for (const [status, type, title, action, code] of cases) {
    await page.route('**/send-input', (route) =>
      status === 'network'
        ? route.abort('connectionrefused')
        : route.fulfill({
            status,
            contentType: 'application/json',
            body: JSON.stringify({
              code: code ?? String(status),
              type,
              message: 'x',
            }),
          }),
    );
    await wizard.button('Send').click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(title);
    await expect(alert.getByRole('button', { name: action })).toBeVisible();
    await page.unroute('**/send-input');
  }
  await expect(page.getByRole('figure')).toHaveCount(3);
  // Inputs the service already has (409 input.locked): the status is offered, never another send.
  await page.route('**/send-input', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'input.locked', type: 'ValidationError', message: 'x' }),
    }),
  );
  await wizard.button('Try again').click();
  await expect(page.getByRole('alert')).toContainText('Your verification has already started');
  await expect(wizard.button('Send')).toBeDisabled();
  await page.unroute('**/send-input');
  await page.getByRole('alert').getByRole('button', { name: 'See the status' }).click();
  await expect(wizard.heading()).toHaveText('Thank you');
});
