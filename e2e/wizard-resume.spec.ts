import { expect, test, type Page } from '@playwright/test';
import { WizardPage } from './fixtures/wizard-page';

const countVerificationPosts = (page: Page) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/verifications') posts.push(r.url());
  });
  return posts;
};

test.describe('wizard: captures survive a reload', () => {
  test('a reload mid-wizard resumes the same verification, captures and step', async ({ page }) => {
    const posts = countVerificationPosts(page);
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.expectStep('Selfie');
    await page.reload();
    await wizard.expectStep('Selfie');
    await expect(page.getByText('Step 2 of 3')).toBeVisible();
    // Back goes to the previous screen: the document's back side, then its front.
    await wizard.button('Back').click();
    await expect(page.getByRole('figure').getByText('ar-national-id-back.jpg')).toBeVisible();
    await wizard.button('Back').click();
    await expect(page.getByRole('figure').getByText('ar-national-id-front.jpg')).toBeVisible();
    await expect(page.getByRole('img', { name: /Front of your national ID card/ })).toBeVisible();
    await wizard.continue();
    await expect(page.getByRole('figure').getByText('ar-national-id-back.jpg')).toBeVisible();
    await wizard.continue();
    await wizard.selfie();
    await expect(page.getByRole('figure')).toHaveCount(3);
    await wizard.send();
    await wizard.expectDone();
    expect(posts).toHaveLength(1);
    // After a reload the final screen is still there, with the same verification.
    await page.reload();
    await wizard.expectDone();
    expect(posts).toHaveLength(1);
  });

  test('a capture lost from storage is found missing before the send, and retaken', async ({ page }) => {
    const wizard = new WizardPage(page);
    await wizard.start('ar-national-id');
    await wizard.documentSides('ar-national-id-front.jpg', 'ar-national-id-back.jpg');
    await wizard.selfie();
    await expect(wizard.heading()).toHaveText('Check and send');
    // The browser evicts the selfie's bytes (storage pressure), then the page is reloaded.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('idv-wizard');
          open.onsuccess = () => {
            const tx = open.result.transaction('blobs', 'readwrite');
            const store = tx.objectStore('blobs');
            const keys = store.getAllKeys();
            keys.onsuccess = () => {
              for (const key of keys.result) if (String(key).includes('/selfie/')) store.delete(key);
            };
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    await page.reload();
    await expect(wizard.heading()).toHaveText('Check and send');
    // The browser checks every held capture before sending: the missing one is told, not sent
    // (the service would answer media.notFound).
    await wizard.send();
    await expect(page.getByText('This file is no longer on this device.')).toBeVisible();
    await wizard.button('Take again: Selfie').click();
    await wizard.selfie();
    await wizard.send();
    await wizard.expectDone();
  });
});
