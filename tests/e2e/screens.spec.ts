// Defects of issue 30 that could come back: tables wider than their card (every list screen and
// the studio, at 1400 and 1024 px), a playground result left on screen after switching source or
// under a new error, and batch items numbered from 0 or without links to their documents.

import { test, expect } from './fixtures.ts';
import type { Page } from '@playwright/test';

/** Every table inside a card fits it: no card scrolls sideways. */
async function expectTablesFit(page: Page, where: string): Promise<void> {
  const overflows = await page.evaluate(() =>
    [...document.querySelectorAll('table')].flatMap((table) => {
      const card = table.closest('.card');
      if (!card) return [];
      const over = Math.round(table.getBoundingClientRect().right - card.getBoundingClientRect().right);
      return over > 0 ? [`${table.getAttribute('aria-label') ?? table.className}: ${over} px`] : [];
    }),
  );
  expect(overflows, `tables wider than their card on ${where}`).toEqual([]);
}

for (const width of [1400, 1024]) {
  test(`no table is wider than its card at ${width} px (lists and the studio)`, async ({ admin: page, quire }) => {
    await page.setViewportSize({ width, height: 900 });
    const key = await quire.createKey('business', { name: 'A key with a rather long descriptive name' });
    const auth = { authorization: `Bearer ${key.key}` };
    const created = await quire.request('POST', '/v1/templates', { name: 'Release notes', format: 'markdown', html: '# v{{v}}', sample_data: { v: 1 } }, auth);
    const id = ((await created.json()) as { template_id: string }).template_id;
    await quire.request('PUT', `/v1/templates/${id}`, { name: 'Release notes', format: 'markdown', html: '# Version {{v}}', sample_data: { v: 2 } }, auth);
    await quire.render({ html: '<p>x</p>', store: true, filename: 'a-rather-long-file-name-for-a-document.pdf', options: { wait_until: 'load' } }, auth);
    await quire.request('POST', '/v1/pdf/batch', { requests: [{ html: '<p>y</p>', filename: 'letter.pdf', options: { wait_until: 'load' } }] }, auth);
    for (const path of ['/admin/keys', '/admin/templates', '/admin/documents', '/admin/batches', `/admin/templates/${id}`]) {
      await page.goto(path);
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await expect(page.locator('table').first()).toBeVisible();
      await expectTablesFit(page, path);
    }
    // The studio marks the current version and offers no restore of it.
    const current = page.locator('.versions-table tbody tr').first();
    await expect(current).toContainText('current');
    await expect(current.getByRole('button', { name: /^Restore/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Restore v1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore v1?' });
    const box = (await dialog.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(Math.abs(box.y + box.height / 2 - viewport.height / 2), 'the restore dialog is centred').toBeLessThan(40);
  });
}

test('the playground clears its result when the source changes and when a render fails', async ({ admin: page }) => {
  await page.goto('/admin/playground');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  const download = page.getByRole('button', { name: 'Download' });
  await expect(download).toBeEnabled();
  await expect(page.getByTestId('pdf-text')).toContainText('Hello from Quire');

  await page.getByText('Markdown', { exact: true }).click();
  await expect(download).toBeDisabled();
  await expect(page.getByTestId('pdf-text')).toHaveText('');

  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(download).toBeEnabled();
  await page.getByText('URL', { exact: true }).click();
  await page.getByText('Markdown', { exact: true }).click();
  await expect(download).toBeDisabled();

  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(download).toBeEnabled();
  await page.locator('#playground-markdown').fill(`# ${'x'.repeat(600 * 1024)}`);
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.locator('.error-note').first()).toBeVisible();
  await expect(download).toBeDisabled();
});

test('the public playground’s timeout field says the playground’s cap, and its code opens on the keyless call', async ({ page }) => {
  await page.goto('/playground');
  await page.getByText('Page options', { exact: true }).click();
  await expect(page.locator('#opt-timeout')).toHaveAttribute('max', '15000');
  await expect(page.getByText('1000 to 15000')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'curl (no key)' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('pre.code').first()).toContainText('/v1/playground/pdf');
});

test('batch items are numbered from 1, name their file and link their document', async ({ admin: page, quire }) => {
  const requests = [
    { html: '<h1>One</h1>', filename: 'one.pdf', options: { wait_until: 'load' } },
    { url: 'http://10.0.0.1/', filename: 'private.pdf' },
  ];
  const answer = await quire.request('POST', '/v1/pdf/batch', { requests });
  const batch = (await answer.json()) as { batch_id: string; results: { document_id?: string }[] };
  await page.goto('/admin/batches');
  await page.locator(`tr[data-batch-id="${batch.batch_id}"] .row-toggle`).click();
  const items = page.getByRole('table', { name: `Items of ${batch.batch_id}` }).locator('tbody tr');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('item 1');
  await expect(items.nth(0)).toContainText('one.pdf');
  await expect(items.nth(1)).toContainText('item 2');
  await expect(items.nth(1)).toContainText('private.pdf');
  const documentId = batch.results[0]!.document_id!;
  await items.nth(0).getByRole('link', { name: documentId }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/documents\\?id=${documentId}$`));
  // Opened by its id alone, it is still titled with its filename (issue 39, 20: it showed the id).
  await expect(page.getByRole('dialog', { name: 'one.pdf' })).toBeVisible();
});
