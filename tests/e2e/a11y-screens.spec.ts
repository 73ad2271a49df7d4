// The admin window's accessibility audit (issue 42 item 5): axe (@axe-core/playwright) on every
// screen of ui/src/App.tsx with realistic content (a key, a template, a stored document, a batch),
// signed out and on the public playground too; no serious or critical finding may be left.
// The dialogs' audit and their keyboard behaviour: a11y-dialogs.spec.ts.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { expectNoSeriousViolations, seedContent } from './a11y-helpers.ts';

test('every admin screen passes axe with no serious or critical findings', async ({ admin: page, quire }) => {
  test.setTimeout(240_000);
  const { templateId } = await seedContent(quire);
  const heading = () => page.locator('main h1').first();
  const screens: [string, () => ReturnType<Page['locator']>][] = [
    ['/admin/activity', () => page.locator('tr[data-receipt-id]').first()],
    ['/admin/keys', heading],
    ['/admin/templates', heading],
    // The studio's title is an input; the preview shows once the first render is back.
    [`/admin/templates/${templateId}`, () => page.getByText(/^Rendered in/)],
    ['/admin/playground', heading],
    ['/admin/documents', () => page.getByText('statement.pdf').first()],
    ['/admin/batches', heading],
    ['/admin/pdf-tools', heading],
    ['/admin/einvoices', heading],
    ['/admin/certificates', heading],
    ['/admin/no-such-screen', () => page.getByText('There is no such page')],
  ];
  for (const [path, ready] of screens) {
    await page.goto(path);
    await expect(ready()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
    await expectNoSeriousViolations(page, path);
  }

  // The playground with its result on screen (preview, facts, receipt), and the activity's receipt panel.
  await page.goto('/admin/playground');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('Hello from Quire');
  await expectNoSeriousViolations(page, 'the playground with a result');
  await page.goto('/admin/activity');
  await page.locator('tr[data-receipt-id]').first().getByRole('button', { name: 'Receipt' }).click();
  const panel = page.getByRole('dialog', { name: 'Receipt' });
  await expect(panel.locator('.receipt')).toBeVisible();
  await expectNoSeriousViolations(page, 'the receipt panel');
});

test('the sign-in screen and the public playground pass axe', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible();
  await expectNoSeriousViolations(page, 'sign-in');
  await page.goto('/playground');
  await expect(page.getByRole('button', { name: 'Render PDF' })).toBeVisible();
  await expectNoSeriousViolations(page, '/playground');
});
