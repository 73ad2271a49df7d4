// Every screen at the smallest supported window (1024x700): no sideways scrolling, a screenshot
// of each; and the admin window can be used with the keyboard alone.

import { test, expect, snap, expectNoHorizontalScroll } from './fixtures.ts';

test.use({ viewport: { width: 1024, height: 700 } });

const SCREENS = [
  { path: '/admin/activity', heading: 'Activity' },
  { path: '/admin/keys', heading: 'API keys' },
  { path: '/admin/templates', heading: 'Templates' },
  { path: '/admin/playground', heading: 'Playground' },
  { path: '/admin/documents', heading: 'Documents' },
  { path: '/admin/batches', heading: 'Batches' },
];

test('every admin screen fits 1024x700 and has its empty or loaded state', async ({ admin: page }, testInfo) => {
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
    await expectNoHorizontalScroll(page);
    await snap(page, testInfo, `small-${screen.path.split('/').pop()}`);
  }
  await page.goto('/playground');
  await expectNoHorizontalScroll(page);
  await snap(page, testInfo, 'small-public-playground');
});

test('the admin window works from the keyboard: skip link, navigation, dialogs', async ({ admin: page }) => {
  await page.goto('/admin/keys');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  // Activity, API keys, then Templates.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Templates' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/templates$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible();

  await page.goto('/admin/keys');
  await page.getByRole('button', { name: 'New key' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Keyboard key');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Key “Keyboard key” created' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('row').filter({ hasText: 'Keyboard key' })).toBeVisible();
});

test('an unknown admin address shows a way back', async ({ admin: page }) => {
  await page.goto('/admin/nothing-here');
  await expect(page.getByRole('heading', { name: 'There is no such page' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
});
