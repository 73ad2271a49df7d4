// The documents screen's reads under load and its dialogs (issue 39, items 8 and 10): a screen of
// thumbnails all drawn though the server draws four at once; a thumbnail or Inspect that still
// fails offers a retry; the Inspect and Tools dialogs read left to right, not from the actions cell.

import { test, expect } from './fixtures.ts';
import type { TestServer } from '../helpers/start-app.ts';

async function storeDocuments(quire: TestServer, prefix: string, count: number): Promise<string[]> {
  const key = await quire.createKey('starter', { name: 'Reads' });
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const response = await fetch(`${quire.url}/v1/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: `<h1>Read ${i}</h1>`, options: { wait_until: 'load' }, store: true, filename: `${prefix}-${i}.pdf` }),
    });
    expect(response.status).toBe(200);
    ids.push(response.headers.get('x-document-id')!);
  }
  return ids;
}

test('documents: every visible thumbnail is drawn, and a failed one or a failed Inspect can be retried', async ({ admin: page, quire }) => {
  // Twelve drawings on a shared two-core machine, the first one starting the PDF worker threads.
  test.setTimeout(180_000);
  const ids = await storeDocuments(quire, 'read', 12);
  // Tall enough that every row is in view at once: twelve thumbnails asked together.
  await page.setViewportSize({ width: 1280, height: 2400 });
  // One thumbnail and one inspection are refused as busy, every time, until the route is lifted.
  const refused = ids[0]!;
  const busy = {
    status: 503,
    contentType: 'application/json',
    headers: { 'Retry-After': '1' },
    body: JSON.stringify({ code: 'renderer_busy', detail: 'The renderer is at capacity; retry shortly.' }),
  };
  await page.route(`**/admin/v1/documents/${refused}/thumbnail*`, (route) => route.fulfill(busy));
  await page.route(`**/admin/v1/documents/${refused}/inspect`, (route) => route.fulfill(busy));
  await page.goto('/admin/documents');
  for (const id of ids.slice(1)) await expect(page.locator(`img[data-thumbnail-of="${id}"]`)).toBeVisible({ timeout: 60_000 });

  const row = page.locator(`tr[data-document-id="${refused}"]`);
  const retry = row.getByRole('button', { name: 'Retry the thumbnail' });
  await expect(retry).toBeVisible({ timeout: 30_000 });
  await page.unroute(`**/admin/v1/documents/${refused}/thumbnail*`);
  await retry.click();
  await expect(page.locator(`img[data-thumbnail-of="${refused}"]`)).toBeVisible();

  await row.getByRole('button', { name: 'Inspect' }).click();
  const dialog = page.getByRole('dialog', { name: /Inside read-1\.pdf/ });
  await expect(dialog.getByRole('alert')).toContainText('at capacity', { timeout: 30_000 });
  await page.unroute(`**/admin/v1/documents/${refused}/inspect`);
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByText('Pages', { exact: true }).first()).toBeVisible();
});

test('documents: the Inspect and Tools dialogs are aligned to the start, not to the actions cell', async ({ admin: page, quire }) => {
  await storeDocuments(quire, 'aligned', 1);
  await page.goto('/admin/documents');
  const row = page.getByRole('row').filter({ hasText: 'aligned-1.pdf' });
  for (const action of ['Inspect', 'Tools']) {
    await row.getByRole('button', { name: action }).click();
    const dialog = page.getByRole('dialog');
    const content = dialog.locator('.dialog-content');
    await expect(content).not.toBeEmpty();
    await expect(content.locator('dt, label').first()).toBeVisible({ timeout: 30_000 });
    const alignment = await content.evaluate((element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      // Where the text itself starts (a Range's box, not the block's): right-aligned text starts far to the right.
      const first = element.querySelector('dt, label')!;
      const range = document.createRange();
      range.selectNodeContents(first);
      return { textAlign: style.textAlign, whiteSpace: style.whiteSpace, textLeft: range.getBoundingClientRect().left - box.left, width: box.width };
    });
    expect(['start', 'left']).toContain(alignment.textAlign);
    expect(alignment.whiteSpace).toBe('normal');
    expect(alignment.textLeft).toBeLessThan(alignment.width / 4);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
});
