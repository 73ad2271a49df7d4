// The PDF tools screen's transform (issue 33 item 5): upload a PDF, compose steps (add, move,
// remove), save and apply a preset, see a server refusal with its detail, preview the result's
// pages and download it, read with pdfinfo and pdftotext; and the documents screen's Tools dialog
// (split, compress, images of a stored document, and its link to the screen with the step chosen).

import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { test, expect, expectNoHorizontalScroll, snap } from './fixtures.ts';
import { PDFDocument } from '@cantoo/pdf-lib';
import { pageRotations, pageTexts } from '../helpers/pdf-cli.ts';

test.describe.configure({ timeout: 240_000 });

async function addStep(page: Page, label: string): Promise<void> {
  await page.getByLabel('Operation').selectOption({ label });
  await page.getByRole('button', { name: 'Add step' }).click();
}

/** Portrait pages with these texts, so a turned page's preview is wider than tall. */
async function portraitPdf(texts: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const text of texts) doc.addPage([300, 480]).drawText(text, { x: 20, y: 240, size: 20 });
  return Buffer.from(await doc.save());
}

const step = (page: Page, n: number, label: string) => page.getByRole('listitem', { name: `Step ${n}: ${label}` });

test('PDF tools screen: compose rotate and delete steps, keep them as a preset, preview and download the result', async ({
  admin: page,
  serverHas,
}, testInfo) => {
  test.skip(!(await serverHas('/admin/v1/pdf/transform')), 'admin transform not built yet (issue 33)');
  await page.goto('/admin/pdf-tools');
  const pdf = await portraitPdf(['Page 1', 'Page 2', 'Page 3']);
  await page.getByTestId('pdf-file').setInputFiles({ name: 'letters.pdf', mimeType: 'application/pdf', buffer: pdf });

  // Delete first, then rotate, then a flatten that is taken out again; rotate is moved up.
  await addStep(page, 'Delete pages');
  await step(page, 1, 'Delete pages').getByLabel('Pages to delete').fill('9');
  await addStep(page, 'Rotate');
  await step(page, 2, 'Rotate').getByLabel('Pages').fill('1');
  await addStep(page, 'Flatten');
  await step(page, 3, 'Flatten').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(2);
  await step(page, 2, 'Rotate').getByRole('button', { name: 'Move up' }).click();
  await expect(step(page, 1, 'Rotate').getByLabel('Angle')).toHaveValue('90');

  // The server's refusal is shown with its detail, naming the step.
  await page.getByRole('button', { name: 'Run and preview' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'steps[1].pages' })).toContainText('page 9', { timeout: 60_000 });
  await step(page, 2, 'Delete pages').getByLabel('Pages to delete').fill('3');

  // Kept as a preset of the key, the list emptied, the preset applied back.
  await page.getByLabel('Preset name').fill('turn and trim');
  await page.getByRole('button', { name: 'Save steps as preset' }).click();
  await expect(page.getByLabel('Preset', { exact: true })).toContainText('turn and trim (2 steps)');
  await step(page, 2, 'Delete pages').getByRole('button', { name: 'Remove' }).click();
  await step(page, 1, 'Rotate').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No steps yet')).toBeVisible();
  await page.getByRole('button', { name: 'Apply preset' }).click();
  await expect(step(page, 2, 'Delete pages').getByLabel('Pages to delete')).toHaveValue('3');

  await page.getByRole('button', { name: 'Run and preview' }).click();
  const previews = page.getByTestId('result-previews').getByRole('img');
  await expect(previews).toHaveCount(2, { timeout: 90_000 });
  // Page 1 is turned: its preview is wider than tall; page 2 is not.
  const [turned, upright] = [await previews.nth(0).boundingBox(), await previews.nth(1).boundingBox()];
  expect(turned!.width).toBeGreaterThan(turned!.height);
  expect(upright!.width).toBeLessThan(upright!.height);
  await expect(page.getByTestId('transform-facts')).toContainText('2 pages');
  await expect(page.getByRole('table', { name: 'What each step did' }).getByRole('row')).toHaveCount(3);
  await snap(page, testInfo, 'pdf-tools-transform');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toBe('letters.pdf');
  const out = new Uint8Array(await readFile((await download.path())!));
  expect(pageTexts(out)).toEqual(['Page 1', 'Page 2']);
  expect(pageRotations(out)).toEqual([90, 0]);
});

test('documents screen: Tools splits, compresses and draws a stored document, and opens the PDF tools screen with the step', async ({
  admin: page,
  quire,
  serverHas,
}) => {
  test.skip(!(await serverHas('/admin/v1/pdf/transform')), 'admin transform not built yet (issue 33)');
  await page.setViewportSize({ width: 1024, height: 700 });
  const rendered = await quire.render({
    html: '<title>Minutes</title><p>One</p><p style="break-before: page">Two</p><p style="break-before: page">Three</p>',
    options: { wait_until: 'load' },
    store: true,
    filename: 'minutes.pdf',
  });
  const id = rendered.headers.get('x-document-id')!;
  await page.goto('/admin/documents');
  const row = page.getByRole('row').filter({ hasText: 'minutes.pdf' });
  await expect(row.getByRole('button', { name: 'Tools' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  const wrap = page.locator('.table-wrap');
  expect(await wrap.evaluate((element) => element.scrollWidth - element.clientWidth), 'the documents table scrolls sideways at 1024 px').toBeLessThanOrEqual(0);

  await row.getByRole('button', { name: 'Tools' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tools for minutes.pdf' });
  // Split: one part a page, as a zip.
  const [parts] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download zip' }).click()]);
  expect(parts.suggestedFilename()).toBe('minutes.zip');
  const files = unzipSync(new Uint8Array(await readFile((await parts.path())!)));
  expect(Object.keys(files).sort()).toEqual(['minutes-1.pdf', 'minutes-2.pdf', 'minutes-3.pdf']);
  expect(pageTexts(files['minutes-2.pdf']!)).toEqual(['Two']);

  // Compress, losslessly: the same pages and text.
  await dialog.getByText('Compress', { exact: true }).click();
  await dialog.getByLabel('Compression').selectOption('lossless');
  const [small] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pageTexts(new Uint8Array(await readFile((await small.path())!)))).toEqual(['One', 'Two', 'Three']);
  await expect(dialog.getByTestId('tool-done')).toContainText('minutes.pdf:');

  // Images: a zip of one JPEG a page. The compress result's line goes with its tool (issue 39, 20).
  await dialog.getByText('Images', { exact: true }).click();
  await expect(dialog.getByTestId('tool-done')).toHaveCount(0);
  await dialog.getByLabel('Format').selectOption('jpeg');
  await dialog.getByLabel('Resolution (dpi)').fill('30');
  const [images] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download zip' }).click()]);
  expect(Object.keys(unzipSync(new Uint8Array(await readFile((await images.path())!))))).toHaveLength(3);

  // More steps: the PDF tools screen with this document and a compress step chosen.
  await dialog.getByText('Compress', { exact: true }).click();
  await dialog.getByRole('link', { name: 'More steps and a preview' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/pdf-tools\\?document=${id}&op=compress$`));
  await expect(page.getByLabel('or a stored document')).toHaveValue(id);
  await expect(step(page, 1, 'Compress').getByLabel('Image resolution (dpi)')).toHaveValue('150');
});
