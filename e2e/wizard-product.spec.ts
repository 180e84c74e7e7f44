import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import { contrastRatio } from '@/server-shared/color-contrast';
import { samplePath } from './fixtures/samples';
import { WizardPage } from './fixtures/wizard-page';
import { testSettings } from './fixtures/test-settings';

// The wizard as a product: welcome and consent in three languages, history per step, the
// interrupted and the cancelled upload, photos in other formats, the handoff to a phone and the
// brand, on a 390 px phone and a 1280 px laptop, with axe and a screenshot of every screen
// (test-results/screenshots/<screen>-<width>.png).

const viewports = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  laptop: { viewport: { width: 1280, height: 800 } },
} as const;

const welcome = {
  en: {
    flow: 'Mexico: INE, liveness video, proof of address and tax data',
    needs: 'What you will need',
    consent: /Demo Bank receives your INE/,
    agree: /I have read this notice/,
    start: 'Agree and start',
    required: 'To start, tick the box to agree to the notice.',
    step: 'Identity document',
  },
  es: {
    flow: 'México: INE, video selfie, comprobante de domicilio y datos fiscales',
    needs: 'Qué vas a necesitar',
    consent: /Demo Bank recibe tu INE/,
    agree: /Leí este aviso/,
    start: 'Aceptar y empezar',
    required: 'Para empezar, marca la casilla para aceptar el aviso.',
    step: 'Documento de identidad',
  },
  pt: {
    flow: 'México: INE, vídeo selfie, comprovante de residência e dados fiscais',
    needs: 'O que você vai precisar',
    consent: /Demo Bank recebe seu INE/,
    agree: /Li este aviso/,
    start: 'Aceitar e começar',
    required: 'Para começar, marque a caixa para aceitar o aviso.',
    step: 'Documento de identidade',
  },
} as const;

const search = (page: Page) => new URL(page.url()).search;

/** Document and selfie of ar-national-id, up to the review screen, with a screenshot of each screen. */
async function arToReview(wizard: WizardPage, shots = false) {
  const shot = (name: string) => (shots ? wizard.screenshot(name) : Promise.resolve());
  await wizard.start('ar-national-id');
  await shot('document-choice');
  await wizard.continue();
  await wizard.upload('ar-national-id-front.jpg');
  await shot('document-front-captured');
  await wizard.continue();
  await wizard.upload('ar-national-id-back.jpg');
  await wizard.continue();
  await wizard.expectStep('Selfie');
  await shot('selfie');
  await wizard.selfie();
  await wizard.expectStep('Check and send');
}

for (const [device, options] of Object.entries(viewports)) {
  test.describe(`wizard as a product, ${device}`, () => {
    test.use(options);
    test.describe.configure({ timeout: 300_000 });

    test('welcome and consent come first, in English, Spanish and Portuguese', async ({
      browser,
      baseURL,
    }) => {
      for (const [language, words] of Object.entries(welcome)) {
        // A new browser per language: consent is given once per verification.
        const context = await browser.newContext({ ...options, baseURL });
        await context.addInitScript((l) => localStorage.setItem('idv.language', l), language);
        const page = await context.newPage();
        const wizard = new WizardPage(page);
        await page.goto('/verify/mx-ine-full');
        await expect(wizard.heading()).toHaveText(words.flow);
        await expect(page).toHaveURL(/\?step=welcome$/);
        await expect(page.getByRole('heading', { level: 2, name: words.needs })).toBeVisible();
        await expect(page.getByText(words.consent)).toBeVisible();
        await expect(page.getByRole('link', { name: /privac/i })).toHaveAttribute('href', /^https:/);
        // No capture before consent, and none by a deep link either.
        await wizard.button(words.start).click();
        await expect(page.getByRole('alert')).toHaveText(words.required);
        await wizard.expectAccessible(`welcome ${language}`);
        await wizard.expectNamesMatchText(`welcome ${language}`);
        await wizard.screenshot(`welcome-${language}`);
        await page.goto('/verify/mx-ine-full?step=3');
        await expect(wizard.heading()).toHaveText(words.flow);
        await page.getByRole('checkbox', { name: words.agree }).check();
        await wizard.button(words.start).click();
        await expect(wizard.heading()).toHaveText(words.step);
        await expect(page.getByRole('navigation').getByRole('listitem')).toHaveCount(5);
        await wizard.expectAccessible(`first step ${language}`);
        await wizard.screenshot(`document-choice-${language}`);
        await context.close();
      }
    });

    test('Back and Forward go through every screen; a link resumes at the right capture', async ({
      page,
    }) => {
      const wizard = new WizardPage(page);
      await arToReview(wizard, true);
      await wizard.expectAccessible('review');
      await wizard.expectNamesMatchText('review');
      await wizard.screenshot('review');
      const visited = ['?step=2', '?step=1-back', '?step=1-front', '?step=1-choose', '?step=welcome'];
      for (const place of visited) {
        await page.goBack();
        await expect.poll(() => search(page)).toBe(place);
      }
      await expect(page.getByRole('heading', { level: 2, name: 'Your data' })).toBeVisible();
      for (const place of [...visited].reverse().slice(1)) {
        await page.goForward();
        await expect.poll(() => search(page)).toBe(place);
      }
      await page.goForward();
      await expect(wizard.heading()).toHaveText('Check and send');
      // The wizard's own Back control: one, at the same place, on every screen.
      await wizard.button('Back').click();
      await wizard.expectStep('Selfie');
      await expect(page.getByRole('figure').getByText('selfie.jpg')).toBeVisible();
      await wizard.button('Back').click();
      await expect(page.getByRole('heading', { name: 'Back of your national ID card' })).toBeVisible();
      await wizard.screenshot('document-back-captured');
      // A link to the back side resumes there, in a new tab.
      const other = await page.context().newPage();
      await other.goto('/verify/ar-national-id?step=1-back');
      await expect(other.getByRole('heading', { name: 'Back of your national ID card' })).toBeVisible();
      await expect(other.getByRole('figure').getByText('ar-national-id-back.jpg')).toBeVisible();
      await other.close();
    });

    test('an upload can be cancelled; after a reload mid-upload the status is asked first', async ({
      page,
    }) => {
      const wizard = new WizardPage(page);
      await arToReview(wizard);
      // Uploads that never finish: the request is held (and dropped when the page goes).
      const held: Route[] = [];
      await page.route('**/send-input', (route) => void held.push(route));
      await wizard.button('Send').click();
      await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
      await wizard.expectAccessible('uploading');
      await wizard.screenshot('uploading');
      await wizard.button('Cancel the upload').click();
      await expect(page.getByRole('status').filter({ hasText: 'The upload was cancelled.' })).toBeVisible();
      await expect(wizard.button('Send')).toBeEnabled();
      await wizard.screenshot('upload-cancelled');
      await wizard.button('Send').click();
      await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
      await expect.poll(() => held.length).toBe(2);
      const statusAsked = page.waitForRequest((r) => r.url().endsWith('/status'));
      // The page is reloaded with the upload under way: it never reaches the service.
      await page.reload();
      await statusAsked;
      for (const route of held) await route.abort().catch(() => undefined);
      await page.unroute('**/send-input');
      // Nothing arrived (processing has not started): sending again is offered, and works.
      await expect(wizard.heading()).toHaveText('Check and send');
      await expect(wizard.button('Send')).toBeEnabled();
      expect((await wizard.send()).status()).toBe(201);
      await wizard.expectDone();
      await expect(page.getByRole('heading', { name: 'What happens next' })).toBeVisible();
      await wizard.expectAccessible('done');
      await wizard.screenshot('done');
    });

    test('HEIC and WebP photos are converted in the browser', async ({ page }) => {
      const dir = `test-results/wizard-product-${testSettings.E2E_PORT}`;
      await mkdir(dir, { recursive: true });
      const webp = path.join(dir, 'ar-national-id-front.webp');
      await sharp(samplePath('ar-national-id-front.jpg')).webp({ quality: 90 }).toFile(webp);
      const wizard = new WizardPage(page);
      await wizard.start('ar-national-id');
      await wizard.continue();
      await page.getByLabel('Upload a photo (JPEG or PNG)').setInputFiles(webp);
      await expect(page.getByRole('figure').getByText('ar-national-id-front.webp')).toBeVisible({
        timeout: 30_000,
      });
      await wizard.continue();
      await wizard.upload('ar-national-id-back.jpg');
      await wizard.continue();
      await page.getByLabel('Upload a photo (JPEG or PNG)').setInputFiles('e2e/fixtures/photos/selfie.heic');
      await expect(page.getByRole('figure').getByText('selfie.heic')).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('alert')).toHaveCount(0);
      await wizard.screenshot('selfie-from-heic');
      await wizard.continue();
      expect((await wizard.send()).status()).toBe(201);
      await wizard.expectDone();
    });

    test('capture tiles, tips before the camera, the shot shown large to confirm', async ({ page }) => {
      const wizard = new WizardPage(page);
      await wizard.start('ar-national-id');
      await wizard.continue();
      await expect(page.getByText('Upload a photo (JPEG or PNG)')).toBeVisible();
      // Only a screen with a mouse is told it may drag a file (issue 22, item 12).
      await expect(page.getByText('or drag a file here')).toHaveCount(device === 'phone' ? 0 : 1);
      await wizard.screenshot('document-front-tiles');
      await wizard.button('Take a photo with the camera').click();
      await expect(page.getByRole('heading', { name: 'Before the camera opens' })).toBeVisible();
      await expect(wizard.button('Open the camera')).toBeFocused();
      await wizard.expectAccessible('camera tips');
      await wizard.screenshot('camera-tips');
      await wizard.button('Open the camera').click();
      await expect(page.getByRole('region', { name: 'Camera' })).toBeVisible();
      await expect(wizard.button('Take photo')).toBeEnabled();
      await wizard.screenshot('camera-open');
      await wizard.button('Take photo').click();
      await expect(page.getByRole('img', { name: /The photo just taken/ })).toBeVisible();
      await expect(wizard.button('Use this photo')).toBeFocused();
      await wizard.expectAccessible('confirm shot');
      await wizard.screenshot('camera-confirm');
      await wizard.button('Take it again').click();
      await expect(page.getByRole('region', { name: 'Camera' })).toBeVisible();
      // A chosen file moves the focus to its preview.
      await wizard.button('Close the camera').click();
      await page
        .getByLabel('Upload a photo (JPEG or PNG)')
        .setInputFiles(samplePath('ar-national-id-front.jpg'));
      await expect(page.locator('.capture-current')).toBeFocused({ timeout: 20_000 });
    });
  });
}

test.describe('wizard as a product, laptop and phone together', () => {
  test.describe.configure({ timeout: 300_000 });

  test('a QR code continues the same verification on a phone; the laptop shows it finished', async ({
    browser,
    baseURL,
  }) => {
    const laptop = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    const phone = await browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const desk = new WizardPage(await laptop.newPage());
      await desk.start('ar-national-id');
      await desk.button('Show a QR code').click();
      await expect(
        desk.page.getByRole('img', { name: /QR code that opens this verification/ }),
      ).toBeVisible();
      const link = desk.page.getByRole('link', { name: /\/handoff\// });
      const url = (await link.textContent()) ?? '';
      // Built on PUBLIC_BFF_URL (http://localhost:<port> in these tests), never on 127.0.0.1.
      expect(url).toMatch(/^http:\/\/localhost:\d+\/handoff\/[A-Za-z0-9_-]{32}$/);
      await desk.expectAccessible('handoff code');
      await desk.screenshot('handoff-qr');
      const mobile = new WizardPage(await phone.newPage());
      const path = new URL(url).pathname;
      await mobile.page.goto(path);
      // The person agreed on the laptop: the phone opens on the first step.
      await expect(mobile.page.getByText(/^Step 1 of \d+$/)).toBeVisible();
      await expect(desk.page.getByText('Your phone has taken over.')).toBeVisible({ timeout: 20_000 });
      await desk.screenshot('handoff-claimed');
      await mobile.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
      await mobile.selfie();
      expect((await mobile.send()).status()).toBe(201);
      await mobile.expectDone();
      const reference = (await mobile.page.locator('code').textContent()) ?? '';
      expect(reference).not.toBe('');
      await mobile.screenshot('handoff-phone-done');
      // The laptop follows and ends on the same verification.
      await desk.expectDone();
      await expect(desk.page.locator('code')).toHaveText(reference);
      // The link worked once.
      const again = await phone.newPage();
      await again.goto(path);
      await expect(again.getByRole('heading', { level: 1 })).toHaveText('This link no longer works');
    } finally {
      await laptop.close();
      await phone.close();
    }
  });

  test('the code comes into view on a laptop, and the phone goes on in the language chosen there', async ({
    browser,
    baseURL,
  }) => {
    const laptop = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    // The phone's own language is English: the one chosen on the laptop wins.
    const phone = await browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
    });
    try {
      const desk = new WizardPage(await laptop.newPage());
      await desk.start('ar-national-id');
      await desk.language('es');
      await desk.button('Mostrar un código QR').click();
      // The code, its link and "Hide" were below the fold: the page brings them into view.
      await expect(desk.button('Ocultar el código')).toBeInViewport();
      await expect(desk.page.getByRole('img', { name: /QR/ })).toBeInViewport();
      const url = (await desk.page.getByRole('link', { name: /\/handoff\// }).textContent()) ?? '';
      const mobile = await phone.newPage();
      await mobile.goto(new URL(url).pathname);
      await expect(mobile.getByText(/^Paso 1 de \d+$/)).toBeVisible();
      await expect(mobile.locator('html')).toHaveAttribute('lang', 'es');
    } finally {
      await laptop.close();
      await phone.close();
    }
  });

  test('the brand from the settings, its colour kept with readable text; unknown pages are 404', async ({
    page,
    request,
  }) => {
    const brand = (await (await request.get('/api/brand')).json()) as {
      primaryColor: string;
      onPrimaryColor: string;
      primaryInkColor: string;
    };
    // BRAND_PRIMARY_COLOR=#14b8a6 has 2.5:1 against white: buttons keep it with dark text on it;
    // text and links in the brand's colour on white use a darker shade.
    expect(brand.primaryColor).toBe('#14b8a6');
    expect(contrastRatio(brand.primaryColor, brand.onPrimaryColor)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(brand.primaryInkColor, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const wizard = new WizardPage(page);
    await page.goto('/verify/ar-national-id');
    await expect(page).toHaveTitle(/· Demo Bank$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Demo Bank' })).toBeVisible();
    await expect(page.getByRole('banner').locator('img')).toHaveAttribute('src', '/api/brand/logo');
    // On a laptop the phone's QR code is the first choice, in the brand's colour (issue 22, item 10).
    const start = wizard.button('Show a QR code');
    const rgb = (hex: string) => {
      const [r, g, b] = hex
        .slice(1)
        .match(/../g)!
        .map((h) => parseInt(h, 16));
      return `rgb(${r}, ${g}, ${b})`;
    };
    await expect(start).toHaveCSS('background-color', rgb(brand.primaryColor));
    await expect(start).toHaveCSS('color', rgb(brand.onPrimaryColor));
    expect(await start.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('DejaVu Sans');
    expect((await request.get('/no-such-page')).status()).toBe(404);
    await page.goto('/no-such-page');
    await expect(page.getByRole('alert')).toHaveText('This page does not exist.');
    await wizard.screenshot('not-found');
  });
});
