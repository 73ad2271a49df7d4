// The studio's Word template flow in a real browser against a real LibreOffice: the tags found in
// the docx, the sample data linted live against them, the preview (a PDF read back), a new version
// uploaded from the page, and the visual check of a version. The docx files are written in code.

import { test, expect, snap } from './fixtures.ts';
import { docx } from '../helpers/office-fixtures.ts';
import { officeMissing } from '../helpers/office-available.ts';
import { invoiceData, invoiceTemplate, pngDataUrl } from '../helpers/word-fixtures.ts';

test.skip(officeMissing !== false, `word-template.spec.ts: ${officeMissing}`);

test('a Word template in the studio: tags, live data lint, preview, a new version uploaded, the visual check', async ({ admin: page, quire }, testInfo) => {
  test.setTimeout(180_000);
  const key = await quire.createKey('starter');
  const sample = { ...invoiceData(2), notes: 'not in the file' };
  const created = await quire.admin('POST', '/admin/v1/templates', {
    key_id: key.id,
    name: 'Word invoice',
    format: 'docx',
    file: Buffer.from(invoiceTemplate()).toString('base64'),
    sample_data: sample,
  });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { template_id: string }).template_id;

  await page.goto(`/admin/templates/${id}`);
  const tags = page.getByTestId('word-placeholders');
  await expect(tags).toContainText('{#items}');
  await expect(tags.locator('li', { hasText: '{#items}' }).locator('ul')).toContainText('{description}');
  const lint = page.getByTestId('word-lint');
  await expect(lint).toContainText('Missing: logo');
  await expect(lint).toContainText('Unused: notes');

  // The preview converts the sample data through LibreOffice.
  await expect(page.getByTestId('pdf-text')).toContainText('Widget 2', { timeout: 60_000 });

  // Editing the data re-lints at once and previews again.
  const data = page.getByRole('textbox', { name: 'Sample data (JSON)' });
  await data.fill(JSON.stringify({ ...invoiceData(3, pngDataUrl(40, 20)), customer: { name: 'Studio Customer' } }));
  await expect(lint).toContainText('Every placeholder has data and every value is used.');
  await expect(page.getByTestId('pdf-text')).toContainText('Studio Customer', { timeout: 60_000 });
  await expect(page.getByTestId('pdf-text')).toContainText('Widget 3');
  await page.getByRole('button', { name: 'Save sample data' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sample data saved' })).toBeVisible();
  await snap(page, testInfo, 'studio-word-template');

  // A new version from a file: saved at once, its tags shown, its preview drawn.
  await page.getByTestId('word-upload').setInputFiles({
    name: 'letter.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: Buffer.from(docx([['Second version for {customer.name}', 'Signed {signature}']])),
  });
  await expect(page.getByRole('status').filter({ hasText: 'Version uploaded: letter.docx' })).toBeVisible();
  await expect(tags).toContainText('{signature}');
  await expect(tags).not.toContainText('{#items}');
  await expect(lint).toContainText('Missing: signature');
  await expect(page.getByTestId('pdf-text')).toContainText('Second version for Studio Customer', { timeout: 60_000 });

  // A file whose tag does not parse is refused with the tag named, and nothing changes.
  await page.getByTestId('word-upload').setInputFiles({
    name: 'broken.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: Buffer.from(docx([['{#items} never closed']])),
  });
  await expect(page.getByText('the tag {#items} is never closed')).toBeVisible();
  await expect(tags).toContainText('{signature}');

  // The visual check of the version just uploaded (v3: create, sample data, upload): its reference against now.
  await page.getByRole('button', { name: 'Check v3' }).click();
  await expect(page.getByTestId('check-verdict')).toHaveText(/No change|had no reference yet/, { timeout: 90_000 });
});
