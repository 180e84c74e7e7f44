import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';
import { testSettings } from './fixtures/test-settings';

test('files refused in the browser: too small, wrong format, a PDF where a photo goes, too big', async ({
  page,
}) => {
  // Over 50 MB: a JPEG signature and zeros, written as a sparse file.
  const dir = `test-results/wizard-files-${testSettings.E2E_PORT}`;
  await mkdir(dir, { recursive: true });
  const huge = `${dir}/huge.jpg`;
  await writeFile(huge, Buffer.from([0xff, 0xd8, 0xff]));
  await truncate(huge, 51 * 1024 * 1024);
  const wizard = new WizardPage(page);
  await wizard.start('ar-national-id');
  await wizard.continue();
  const cases: [Parameters<WizardPage['uploadRefused']>[0], string][] = [
    [samplePath('document-small.jpg'), 'This photo is too small.'],
    [
      { name: 'note.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture at all') },
      'This file is not a photo we can use.',
    ],
    [samplePath('bank-statement.pdf'), 'A PDF is not accepted here.'],
    [huge, 'This file is too large (more than 50 MB).'],
  ];
  for (const [file, message] of cases) {
    const alert = await wizard.uploadRefused(file);
    await expect(alert).toContainText(message);
    await expect(wizard.button('Continue')).toBeDisabled();
  }
  await wizard.expectAccessible('refused file');
});

test('Spanish from the browser, Portuguese from the switcher, at 360 px wide', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    locale: 'es-ES',
    viewport: { width: 360, height: 740 },
  });
  const page = await context.newPage();
  await page.goto('/verify/ar-national-id');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Argentina: DNI y selfie');
  await page.getByRole('checkbox', { name: /Leí este aviso/ }).check();
  await page.getByRole('button', { name: 'Aceptar y empezar' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Documento de identidad');
  await expect(page.getByText('Paso 1 de 3')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('Subir una foto (JPEG o PNG)').setInputFiles(samplePath('document-small.jpg'));
  await expect(page.getByRole('alert')).toContainText('Esta foto es demasiado pequeña.');
  await expect(page.getByRole('alert')).toContainText('Usa una foto de al menos 600 × 600 píxeles');
  const wizard = new WizardPage(page);
  await wizard.expectAccessible('Spanish, 360 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.getByLabel('Idioma').selectOption('pt');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Documento de identidade');
  await expect(page.getByRole('alert')).toContainText('Esta foto é pequena demais.');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
  await page
    .getByLabel('Carregar uma foto (JPEG ou PNG)')
    .setInputFiles(samplePath('ar-national-id-front.jpg'));
  await expect(page.getByRole('figure').getByText('ar-national-id-front.jpg')).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Verso: carteira de identidade' })).toBeVisible();
  await wizard.expectAccessible('Portuguese, 360 px');
  await context.close();
});
