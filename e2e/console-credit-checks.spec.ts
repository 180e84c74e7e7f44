import { expect, test } from '@playwright/test';
import { ConsolePage } from './fixtures/console-page';

test.use({ locale: 'en-US' });

test('Brazilian and Argentine credit checks: browser validation, then the result arrives', async ({
  page,
}) => {
  const staff = new ConsolePage(page);
  await staff.openLoggedIn('/console/credit-checks');
  await expect(page.getByRole('heading', { level: 1, name: 'Credit checks' })).toBeVisible();

  // Brazil: a CPF with a wrong check digit is refused in the browser, next to the field.
  const brazil = page.getByRole('form', { name: 'Brazil' });
  const cpf = brazil.getByLabel('CPF');
  await cpf.fill('123.456.789-00');
  await brazil.getByRole('button', { name: 'Run the Brazilian credit check' }).click();
  await expect(cpf).toHaveAttribute('aria-invalid', 'true');
  await expect(cpf).toHaveAccessibleDescription(/Enter a CPF of 11 digits with valid check digits\./);
  await cpf.fill('123.456.789-09');
  await brazil.getByRole('button', { name: 'Run the Brazilian credit check' }).click();
  await expect(cpf).not.toHaveAttribute('aria-invalid', 'true');
  const brResult = page.getByRole('region', { name: 'Latest Brazilian credit check' });
  await expect(brResult.getByRole('heading', { name: 'Brazil: CPF 123.456.789-09' })).toBeVisible();
  await expect(brResult.getByText('Completed', { exact: true })).toBeVisible();
  await expect(brResult.getByRole('term').filter({ hasText: /^Score$/ })).toBeVisible();

  // Argentina: the radio group switches to DNI + full name; each field is validated on its own.
  const argentina = page.getByRole('form', { name: 'Argentina' });
  await argentina.getByRole('radio', { name: 'DNI and full name' }).check();
  await expect(argentina.getByRole('textbox', { name: 'CUIT' })).toHaveCount(0);
  await argentina.getByRole('textbox', { name: 'DNI' }).fill('123');
  await argentina.getByRole('button', { name: 'Run the Argentine credit check' }).click();
  await expect(argentina.getByRole('textbox', { name: 'DNI' })).toHaveAccessibleDescription(
    /Enter a DNI of 7 or 8 digits\./,
  );
  await expect(argentina.getByRole('textbox', { name: 'Full name' })).toHaveAttribute('aria-invalid', 'true');
  await argentina.getByRole('textbox', { name: 'DNI' }).fill('12.345.678');
  await argentina.getByRole('textbox', { name: 'Full name' }).fill('Ana Pérez');
  await argentina.getByRole('button', { name: 'Run the Argentine credit check' }).click();
  const arResult = page.getByRole('region', { name: 'Latest Argentine credit check' });
  await expect(
    arResult.getByRole('heading', { name: 'Argentina: DNI 12.345.678 · Ana Pérez' }),
  ).toBeVisible();
  await expect(arResult.getByText('Completed', { exact: true })).toBeVisible();

  // And by CUIT: the earlier check moves to the history.
  await argentina.getByRole('radio', { name: 'CUIT' }).check();
  await argentina.getByRole('textbox', { name: 'CUIT' }).fill('20-12345678-6');
  await argentina.getByRole('button', { name: 'Run the Argentine credit check' }).click();
  await expect(arResult.getByRole('heading', { name: 'Argentina: CUIT 20-12345678-6' })).toBeVisible();
  await expect(arResult.getByText('Completed', { exact: true })).toBeVisible();
  // .first(): a retry on the same server finds the earlier run's check in the history too.
  await expect(
    page.getByRole('article', { name: 'Argentina: DNI 12.345.678 · Ana Pérez' }).first(),
  ).toBeVisible();

  expect(await staff.seriousViolations()).toEqual([]);
  await staff.expectFitsNarrowScreens();
});

test('without the event stream, a pending credit check is polled until its result arrives', async ({
  page,
}) => {
  // A proxy that drops server-sent events: the console must still show the result.
  await page.route('**/api/staff/events', (route) => route.abort());
  const staff = new ConsolePage(page);
  await staff.openLoggedIn('/console/credit-checks');
  await expect(page.getByText('Live updates on')).toHaveCount(0);
  const brazil = page.getByRole('form', { name: 'Brazil' });
  await brazil.getByLabel('CPF').fill('52998224725');
  await brazil.getByRole('button', { name: 'Run the Brazilian credit check' }).click();
  const result = page.getByRole('region', { name: 'Latest Brazilian credit check' });
  await expect(result.getByRole('heading', { name: 'Brazil: CPF 52998224725' })).toBeVisible();
  await expect(result.getByText('Completed', { exact: true })).toBeVisible();
  // On its scale: the bureau's scores run 300–900.
  await expect(ConsolePage.definition(result, 'Score')).toHaveText(/^\d+ \/ 900$/);
});
