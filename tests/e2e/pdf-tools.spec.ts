// The PDF tools in the admin window: the PDF tools screen (upload, inspect, page previews, images
// zip) and, on the documents screen, a thumbnail per row, Inspect in a dialog and Images (in Tools).

import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { test, expect, snap } from './fixtures.ts';
import { SAMPLE, samplePdf } from '../helpers/pdf-samples.ts';

test.describe.configure({ timeout: 240_000 });

test('PDF tools screen: upload a PDF, see inside it, preview its pages, download them as images', async ({ admin: page, serverHas }, testInfo) => {
  test.skip(!(await serverHas('/admin/v1/pdf/inspect')), 'PDF tools API not built yet (issue 33)');
  await page.goto('/admin/pdf-tools');
  await page.getByTestId('pdf-file').setInputFiles({ name: 'sample.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await samplePdf()) });
  await page.getByRole('button', { name: 'Inspect and preview' }).click();
  const inspection = page.getByTestId('inspection');
  // The first PDF tool call starts pdf.js on a worker thread: slow on a busy machine.
  await expect(inspection.locator('[data-fact="Pages"]')).toHaveText('3', { timeout: 90_000 });
  await expect(inspection.locator('[data-fact="Title"]')).toHaveText(SAMPLE.title);
  await expect(inspection.locator('[data-fact="PDF/A claim"]')).toHaveText('PDF/A-2B');
  await expect(inspection.locator('[data-fact="Rotated pages"]')).toHaveText('2 (90°)');
  await inspection.getByText('Form fields').click();
  await expect(inspection).toContainText('"Ada"');
  const previews = page.getByTestId('page-previews').getByRole('img');
  await expect(previews).toHaveCount(3, { timeout: 60_000 });
  // The rotated page's preview is wider than tall.
  const box = await previews.nth(1).boundingBox();
  expect(box!.width).toBeGreaterThan(box!.height);
  await snap(page, testInfo, 'pdf-tools');

  await page.getByLabel('Format').selectOption('jpeg');
  await page.getByLabel('Resolution (dpi)').fill('30');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download zip' }).click()]);
  expect(download.suggestedFilename()).toBe('sample-images.zip');
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(Object.keys(files).sort()).toEqual(['document-001.jpg', 'document-002.jpg', 'document-003.jpg']);
});

test('documents screen: a thumbnail per document, Inspect in a dialog, Images as a zip from Tools', async ({ admin: page, quire, serverHas }) => {
  test.skip(!(await serverHas('/admin/v1/documents/{document_id}/thumbnail')), 'thumbnails not built yet (issue 33)');
  const rendered = await quire.render({
    html: '<title>Quarterly</title><h1>Quarterly report</h1><p style="break-before: page">Two</p>',
    options: { wait_until: 'load' },
    store: true,
    filename: 'quarterly.pdf',
  });
  const id = rendered.headers.get('x-document-id')!;
  await page.goto('/admin/documents');
  const row = page.getByRole('row').filter({ hasText: 'quarterly.pdf' });
  const thumbnail = row.locator(`img[data-thumbnail-of="${id}"]`);
  await expect(thumbnail).toBeVisible({ timeout: 90_000 });
  expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);

  await row.getByRole('button', { name: 'Inspect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Inside quarterly.pdf' });
  await expect(dialog.locator('[data-fact="Pages"]')).toHaveText('2', { timeout: 60_000 });
  await expect(dialog.locator('[data-fact="Title"]')).toHaveText('Quarterly');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Images: in the row's Tools dialog (pdf-transform.spec drives its split and compress).
  await row.getByRole('button', { name: 'Tools' }).click();
  const tools = page.getByRole('dialog', { name: 'Tools for quarterly.pdf' });
  await tools.getByText('Images', { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), tools.getByRole('button', { name: 'Download zip' }).click()]);
  expect(download.suggestedFilename()).toBe('quarterly-images.zip');
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(Object.keys(files)).toHaveLength(2);
});
