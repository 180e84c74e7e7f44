import { expect, test } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

test('the flow list at /, a flow started by keyboard only, an unknown flow and the way back', async ({
  page,
}) => {
  const wizard = new WizardPage(page);
  await page.goto('/');
  await expect(wizard.heading()).toHaveText('Verify your identity');
  for (const name of [
    'Argentina: national ID and selfie',
    'Mexico: INE, liveness video, proof of address and tax data',
    'Brazil: ID or driving licence, income proof and bank statement',
    'Passport and proof of residency',
  ]) {
    await expect(page.getByRole('link', { name: `Start: ${name}` })).toBeVisible();
  }
  await wizard.expectAccessible('flow list');
  await page.getByRole('link', { name: 'Start: Argentina: national ID and selfie' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/verify\/ar-national-id\?step=welcome$/);
  await page.getByRole('checkbox', { name: /I have read this notice/ }).focus();
  await page.keyboard.press('Space');
  await wizard.button('Agree and start').focus();
  await page.keyboard.press('Enter');
  await wizard.expectStep('Identity document');
  await expect(page).toHaveURL(/\/verify\/ar-national-id\?step=1-choose$/);
  // Focus moves with the screens; Tab, Enter and Space do the rest.
  await wizard.button('Continue').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Front of your national ID card' })).toBeFocused();
  await wizard.button('Back').focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('heading', { name: 'Which document will you use?' })).toBeVisible();

  await page.goto('/verify/no-such-flow');
  await expect(wizard.heading()).toHaveText('This verification does not exist');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the list of verifications' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: /^Start: / })).toHaveCount(4);
});
