// The admin window and the public playground under a POSIX locale (issue #30): the npm Chromium
// started with LANG=C.UTF-8 reports navigator.language "en-US@posix", a tag Intl refuses, and
// uPlot formats numbers with it as its module loads; the window stayed white. The browser here is
// launched with that environment, and the page's language is pinned to that tag in case another
// build would clean it up. A screen that fails shows an error in its place, the navigation stays.

import { findChromium } from '../../server/src/render/chromium-path.ts';
import { test, expect } from './fixtures.ts';

const POSIX_TAG = 'en-US@posix';
const chromium = await findChromium(process.env.CHROME_PATH ?? '');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

test.use({
  launchOptions: {
    executablePath: chromium.path,
    args: isRoot ? ['--no-sandbox'] : [],
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', LANGUAGE: '' },
  },
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript((tag) => {
    Object.defineProperty(navigator, 'language', { configurable: true, get: () => tag });
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => [tag] });
  }, POSIX_TAG);
});

test('the page under test does see a POSIX language tag that Intl refuses', async ({ page }) => {
  await page.goto('/health');
  const seen = await page.evaluate(() => {
    try {
      new Intl.NumberFormat(navigator.language);
      return { language: navigator.language, refused: false };
    } catch {
      return { language: navigator.language, refused: true };
    }
  });
  expect(seen).toEqual({ language: POSIX_TAG, refused: true });
});

test('every admin screen and the public playground render under a POSIX locale', async ({ admin: page, quire }) => {
  // A render so the Activity table and charts have numbers and times to format.
  expect((await quire.render({ html: '<p>one</p>', options: { wait_until: 'load' } })).status).toBe(200);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recent renders' }).locator('tbody tr').first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [link, heading] of [
    ['API keys', 'API keys'],
    ['Templates', 'Templates'],
    ['Playground', 'Playground'],
    ['Documents', 'Documents'],
    ['Batches', 'Batches'],
  ]) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  await page.goto('/playground');
  await expect(page.getByRole('button', { name: /Render/ }).first()).toBeVisible();
});

test('a screen that fails shows an error in its place and the navigation keeps working', async ({ browser, quire }) => {
  // Its own page: the error the screen logs on purpose would fail the fixture's console watch.
  const page = await browser.newPage({ baseURL: quire.url });
  await page.addInitScript((token) => sessionStorage.setItem('quire.adminToken', token), quire.adminToken);
  // An answer the Activity screen cannot read makes it throw while rendering.
  await page.route('**/admin/v1/activity**', (route) => route.fulfill({ json: { recent: 'not a list', minutes: [], instances: [] } }));
  await page.goto('/admin/activity');
  await expect(page.getByRole('alert')).toContainText('This screen could not be shown');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.close();
});
