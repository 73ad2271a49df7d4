// The Documents screen says what made each stored document and how many pages it has (issue 39,
// 20): an office conversion, a merge and a transform are labelled as such, not "Render", with the
// stored PDF's page count, not "—"; a document kept without a filename is named by what made it.

import { test, expect } from './fixtures.ts';
import type { TestServer } from '../helpers/start-app.ts';
import { textPdf } from '../helpers/pdf-cli.ts';
import { threePages } from '../helpers/office-checks.ts';
import { base64 } from '../helpers/office-fixtures.ts';
import { officeMissing } from '../helpers/office-available.ts';

/** Calls a route with store: true under the key, and answers the kept document's id. */
async function store(quire: TestServer, bearer: string, route: string, body: object): Promise<string> {
  const response = await fetch(`${quire.url}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, store: true }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.get('x-document-id')!;
}

/** The row's Source and Pages cells (the second and fourth columns). */
function cellsOf(page: import('@playwright/test').Page, id: string) {
  const row = page.locator(`tr[data-document-id="${id}"]`);
  return { row, source: row.locator('td').nth(1), pages: row.locator('td').nth(3) };
}

test('documents: a merge and a transform are labelled as such, with their page counts', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter', { name: 'Sources' });
  const five = base64(await textPdf(['P1', 'P2', 'P3', 'P4', 'P5']));
  const merged = await store(quire, key.key, '/v1/pdf/merge', {
    sources: [
      { pdf: five, page_ranges: '1-3' },
      { html: '<p>Cover</p>', options: { wait_until: 'load' } },
    ],
    filename: 'merged-sources.pdf',
  });
  // No filename: the screen names it by what made it and when.
  const transformed = await store(quire, key.key, '/v1/pdf/transform', { pdf: five, steps: [{ op: 'delete', pages: '1-2' }] });
  const rendered = await store(quire, key.key, '/v1/pdf', { html: '<p>Plain</p>', options: { wait_until: 'load' }, filename: 'plain.pdf' });

  await page.goto('/admin/documents');
  for (const [id, label, pages] of [
    [merged, 'Merge', '4'],
    [transformed, 'Transform', '3'],
    [rendered, 'Render', '1'],
  ] as const) {
    const cells = cellsOf(page, id);
    await expect(cells.source).toHaveText(label);
    await expect(cells.pages).toHaveText(pages);
  }
  const { row } = cellsOf(page, transformed);
  await expect(row).toContainText(/Transform, .*\d\d:\d\d/);
  await row.getByRole('button', { name: 'Open' }).click();
  const viewer = page.getByRole('dialog', { name: /^Transform, / });
  await expect(viewer.getByTestId('pdf-text')).toContainText('P3');
});

test('documents: an office conversion is labelled Office, with its page count', async ({ admin: page, quire }) => {
  test.skip(officeMissing !== false, `LibreOffice: ${officeMissing}`);
  // LibreOffice starts on the first conversion: seconds on a shared machine.
  test.setTimeout(120_000);
  const key = await quire.createKey('starter', { name: 'Office sources' });
  const id = await store(quire, key.key, '/v1/convert/office', { file: base64(threePages), filename: 'minutes.docx' });
  await page.goto('/admin/documents');
  const cells = cellsOf(page, id);
  await expect(cells.row).toContainText('minutes.pdf');
  await expect(cells.source).toHaveText('Office');
  await expect(cells.pages).toHaveText('3');
});
