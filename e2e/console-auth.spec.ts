import { expect, test } from '@playwright/test';
import { ConsolePage } from './fixtures/console-page';

test.use({ locale: 'en-US' });

test('an anonymous visit sees only the login form, and the API refuses it', async ({ page }) => {
  const staff = new ConsolePage(page);
  await staff.open('/console/verifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Staff login' })).toBeVisible();
  await expect(staff.passwordField()).toBeVisible();
  await expect(staff.nav()).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  for (const path of ['/api/staff/verifications', '/api/staff/credit-checks', '/api/staff/me']) {
    expect((await page.request.get(path)).status(), path).toBe(401);
  }
  expect(
    (await page.request.post('/api/staff/credit-checks/br', { data: { cpf: '123.456.789-09' } })).status(),
  ).toBe(401);
  expect(await staff.seriousViolations()).toEqual([]);
});

test('a wrong password is turned away; the right one opens the console until logout', async ({ page }) => {
  const staff = new ConsolePage(page);
  await staff.open();
  await staff.login('not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Wrong password.');
  await expect(staff.passwordField()).toHaveAttribute('aria-invalid', 'true');
  await expect(staff.nav()).toHaveCount(0);
  expect(await staff.seriousViolations()).toEqual([]);

  await staff.login();
  await expect(staff.nav()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Flows' })).toBeVisible();
  // Moving between console pages brings the reader to the new page's heading.
  await staff.goTo('Credit checks');
  await expect(page.getByRole('heading', { level: 1, name: 'Credit checks' })).toBeFocused();
  await expect(page).toHaveTitle('Credit checks · Staff console');
  // The session survives a reload (HttpOnly cookie), and ends with logout.
  await page.reload();
  await expect(staff.nav()).toBeVisible();
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(staff.passwordField()).toBeVisible();
  expect((await page.request.get('/api/staff/me')).status()).toBe(401);
});

test('the console speaks Spanish and Portuguese', async ({ page }) => {
  const staff = new ConsolePage(page);
  await staff.open();
  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByRole('heading', { level: 1, name: 'Acceso del personal' })).toBeVisible();
  await page.getByLabel('Idioma').selectOption('pt');
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso da equipe' })).toBeVisible();
  await page.getByLabel('Senha da equipe').fill('e2e-staff-password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('navigation', { name: 'Console da equipe' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Fluxos' })).toBeVisible();
});
