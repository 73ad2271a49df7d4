// The playgrounds' result area (issue 39, items 12-14): a failed render or conversion takes the
// earlier result off the screen (preview, size, Download); an e-invoice profile chosen before the
// XML is kept; the result says which final steps were applied, and that a preview does not sign.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from './fixtures.ts';
import { makeTestPki } from '../helpers/test-pki.ts';
import { officeMissing } from '../helpers/office-available.ts';

const MINIMUM_XML = await readFile(path.join(import.meta.dirname, '..', 'fixtures', 'factur-x-minimum.xml'));

test('web playground: a failed render clears the page drawn before, its size and its Download', async ({ page }) => {
  await page.goto('/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>First result</h1>');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('First result');
  await expect(page.locator('.pdf-pages canvas')).toHaveCount(1);

  await page.getByText('URL', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Public URL' }).fill('http://10.9.8.7/');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText('Press Render PDF to see the result here.')).toBeVisible();
  // Nothing of the first result is left, drawn or not.
  await expect(page.locator('.pdf-pages canvas')).toHaveCount(0);
  await expect(page.getByTestId('render-facts')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download' })).toBeDisabled();
});

test('office playground: a failed conversion clears the earlier preview, size and Download', async ({ admin: page }) => {
  test.skip(officeMissing !== false, `office: ${officeMissing}`);
  test.setTimeout(120_000);
  await page.goto('/admin/playground');
  await page.getByText('Office file', { exact: true }).click();
  await page.getByTestId('office-file').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('Item,Price\nTea,3\nCake,4\n') });
  await page.getByRole('button', { name: 'Convert to PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('Tea', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Download' })).toBeEnabled();

  await page.getByTestId('office-file').setInputFiles({ name: 'broken.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('not a docx at all') });
  await page.getByRole('button', { name: 'Convert to PDF' }).click();
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.pdf-pages canvas')).toHaveCount(0);
  await expect(page.getByTestId('render-facts')).toHaveCount(0);
  await expect(page.getByTestId('pdf-text')).toHaveText('');
  await expect(page.getByRole('button', { name: 'Download' })).toBeDisabled();
});

test('admin playground: MINIMUM chosen before the XML is kept; the result says PDF/A and the e-invoice were applied and the signature was not', async ({
  admin: page,
  quire,
}) => {
  // PDF/A, the e-invoice's schema check and the drawing take a while on a shared two-core machine.
  test.setTimeout(180_000);
  const pki = await makeTestPki();
  try {
    const key = await quire.createKey('starter', { name: 'Signer key' });
    const imported = await quire.admin('POST', '/admin/v1/certificates', {
      key_pem: pki.signer.key,
      certificate_pem: pki.signer.cert + pki.caPem,
      owner_key_id: key.id,
    });
    expect(imported.status).toBe(201);
    await page.goto('/admin/playground');
    await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Invoice FA-2026-017</h1>');
    await page.getByText('Document options', { exact: true }).click();
    await page.getByLabel('PDF/A').selectOption('PDF/A-3b');
    await page.getByLabel('Profile').selectOption('MINIMUM');
    await expect(page.getByLabel('Profile')).toHaveValue('MINIMUM');
    await page.getByLabel('Invoice XML').setInputFiles({ name: 'factur-x.xml', mimeType: 'text/xml', buffer: MINIMUM_XML });
    await expect(page.getByText('XML chosen')).toBeVisible();
    await expect(page.getByLabel('Profile')).toHaveValue('MINIMUM');
    await page.getByLabel('Sign as key').selectOption(key.id);
    await page.getByLabel('Certificate').selectOption({ index: 1 });

    await page.getByRole('button', { name: 'Render PDF' }).click();
    await expect(page.getByTestId('pdf-text')).toContainText('Invoice FA-2026-017', { timeout: 90_000 });
    const steps = page.getByRole('list', { name: 'Final steps' });
    await expect(steps.locator('[data-step="pdf_a"]')).toHaveAttribute('data-applied', 'true');
    await expect(steps.locator('[data-step="pdf_a"]')).toContainText('PDF/A-3b');
    await expect(steps.locator('[data-step="e_invoice"]')).toContainText('Factur-X MINIMUM embedded');
    await expect(steps.locator('[data-step="sign"]')).toHaveAttribute('data-applied', 'false');
    await expect(steps.locator('[data-step="sign"]')).toContainText('not signed');
  } finally {
    await pki.close();
  }
});
