import { expect, test, type Page } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

// The welcome screen of /verify/:flowId: everything it needs comes with the page (no API call
// before it shows), nothing is created or sent before the person agrees, the notice names one
// controller and one retention, and on a computer the phone comes first.

/** The BFF API calls the page makes, as method and path (the brand's logo is an image, not a call). */
function apiCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/') && pathname !== '/api/brand/logo')
      calls.push(`${request.method()} ${pathname}`);
  });
  return calls;
}

const creations = (calls: string[]) => calls.filter((call) => call === 'POST /api/verifications');

test.describe('the first screen, phone-sized', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('no verification is created before consent, even across a reload; one is after', async ({ page }) => {
    const wizard = new WizardPage(page);
    const calls = apiCalls(page);
    await page.goto('/verify/global-passport');
    await expect(wizard.button('Agree and start')).toBeVisible();
    // The flow and the brand came with the page: no API call at all for the first screen.
    expect(calls).toEqual([]);
    await page.reload();
    await expect(wizard.button('Agree and start')).toBeVisible();
    // Starting without the box ticked sends nothing either.
    await wizard.button('Agree and start').click();
    await expect(page.getByRole('alert')).toHaveText('To start, tick the box to agree to the notice.');
    expect(creations(calls)).toEqual([]);

    const created = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/verifications',
    );
    await wizard.consent();
    expect((await created).status()).toBe(201);
    await expect(page.getByText(/^Step 1 of \d+$/)).toBeVisible();
    expect(creations(calls)).toHaveLength(1);
    // A reload now resumes the same verification.
    await page.reload();
    await expect(page.getByText(/^Step 1 of \d+$/)).toBeVisible();
    expect(creations(calls)).toHaveLength(1);
  });

  test('on a phone the phone choice comes after the start, and creates nothing until agreed', async ({
    page,
  }) => {
    const wizard = new WizardPage(page);
    const calls = apiCalls(page);
    await page.goto('/verify/ar-national-id');
    const start = wizard.button('Agree and start');
    const show = wizard.button('Show a QR code');
    await expect(show).toBeVisible();
    expect((await start.boundingBox())!.y).toBeLessThan((await show.boundingBox())!.y);
    await show.click();
    await expect(page.getByRole('alert')).toHaveText('To start, tick the box to agree to the notice.');
    await expect(page.getByRole('checkbox', { name: /I have read this notice/ })).toBeFocused();
    expect(creations(calls)).toEqual([]);
  });
});

test.describe('the notice names one controller and one retention', () => {
  for (const [language, heading, days, agree] of [
    [
      'en',
      'Your data',
      /kept for 90 days after your verification's last change/,
      'agree that Demo Bank processes',
    ],
    ['es', 'Tus datos', /Se guardan 90 días desde el último cambio/, 'acepto que Demo Bank trate'],
    ['pt', 'Seus dados', /guardados por 90 dias após a última alteração/, 'aceito que Demo Bank trate'],
  ] as const) {
    test(`in ${language}: the brand of the header and the checkbox, RETENTION_DAYS`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({
        baseURL,
        locale: language,
        viewport: { width: 390, height: 844 },
      });
      try {
        const page = await context.newPage();
        await page.goto('/verify/global-passport');
        const notice = page.getByRole('region', { name: heading });
        await expect(notice).toBeVisible();
        const text = (await notice.locator('p').first().textContent()) ?? '';
        expect(text).toMatch(/^Demo Bank (receives|recibe|recebe) /);
        expect(text).toMatch(days);
        expect(text).not.toMatch(/5 (years|años|anos)/);
        await expect(page.getByRole('banner').getByRole('link', { name: 'Demo Bank' })).toBeVisible();
        // The checkbox names the same controller.
        await expect(page.getByRole('checkbox', { name: new RegExp(agree) })).toBeVisible();
      } finally {
        await context.close();
      }
    });
  }
});

test.describe('laptop and phone', () => {
  test.describe.configure({ timeout: 180_000 });

  test('on a laptop the phone comes first, above the fold; the phone keeps the consent and the country', async ({
    browser,
    baseURL,
  }) => {
    const laptop = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } });
    const phone = await browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const desk = new WizardPage(await laptop.newPage());
      const calls = apiCalls(desk.page);
      await desk.page.goto('/verify/global-passport');
      const show = desk.button('Show a QR code');
      await expect(show).toBeInViewport({ ratio: 1 });
      const box = (await show.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(720);
      expect(box.y).toBeLessThan((await desk.button('Agree and start').boundingBox())!.y);
      await desk.expectAccessible('welcome on a laptop');
      // Agreeing and asking for the code creates the verification, and only then.
      expect(creations(calls)).toEqual([]);
      await desk.page.getByRole('checkbox', { name: /I have read this notice/ }).check();
      await show.click();
      await expect(
        desk.page.getByRole('img', { name: /QR code that opens this verification/ }),
      ).toBeVisible();
      expect(creations(calls)).toHaveLength(1);
      // On second thoughts the laptop starts, picks a country, and hands over from there.
      await desk.button('Hide the code').click();
      await desk.button('Agree and start').click();
      await expect(desk.page.getByText(/^Step 1 of \d+$/)).toBeVisible();
      expect(creations(calls)).toHaveLength(1);
      await desk.page.getByLabel('Issuing country').selectOption('MX');
      await desk.continue();
      await desk.button('Show a QR code').click();
      const link = desk.page.getByRole('link', { name: /\/handoff\// });
      const url = (await link.textContent()) ?? '';

      const mobile = new WizardPage(await phone.newPage());
      await mobile.page.goto(new URL(url).pathname);
      // No second consent: the phone opens on the first step, the country chosen on the laptop kept.
      await expect(mobile.page.getByText(/^Step 1 of \d+$/)).toBeVisible();
      await expect(mobile.page.getByRole('checkbox', { name: /I have read this notice/ })).toHaveCount(0);
      await expect(mobile.page.getByLabel('Issuing country')).toHaveValue('MX');
      await expect(desk.page.getByText('Your phone has taken over.')).toBeVisible({ timeout: 20_000 });
    } finally {
      await laptop.close();
      await phone.close();
    }
  });
});
