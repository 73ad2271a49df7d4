// The E-invoices screen's PDF side (issue 41, item 5), built on einv-read's contract: a hybrid PDF
// read like an XML (its attachment named), and the readable PDF drawn by /render with its report
// line.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from './fixtures.ts';

test.describe.configure({ timeout: 180_000 });

const CORPUS = path.join(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice-corpus');
const VALID = 'examples/cii/CII_business_example_01.xml';
const INVOICE = JSON.parse(await readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'examples', 'invoice.json'), 'utf8')) as Record<string, unknown>;

test('a Factur-X PDF made by Quire is read through its XML', async ({ admin: page, quire }) => {
  const made = await quire.render({ html: '<h1>Invoice</h1>', options: { wait_until: 'load', e_invoice: { profile: 'EN 16931', invoice: INVOICE } } });
  expect(made.status).toBe(200);
  const pdf = Buffer.from(await made.arrayBuffer());
  const probe = await fetch(`${quire.url}/admin/v1/einvoice/inspect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${quire.adminToken}`, 'content-type': 'application/pdf' },
    body: pdf,
  });
  expect(probe.status).toBe(200);

  await page.goto('/admin/einvoices');
  await page.getByTestId('einvoice-file').setInputFiles({ name: 'factur-x.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByTestId('einvoice-verdict')).toBeVisible();
  await expect(page.getByTestId('einvoice-facts')).toContainText('Read from');
  await expect(page.getByTestId('einvoice-facts')).toContainText('factur-x.xml');
  await expect(page.getByTestId('invoice-seller')).toContainText(String((INVOICE.seller as { name: string }).name));
});

test('the readable PDF is drawn, previewed with its rule line and downloaded', async ({ admin: page }) => {
  await page.goto('/admin/einvoices');
  await page.getByTestId('einvoice-file').setInputFiles(path.join(CORPUS, VALID));
  await expect(page.getByTestId('einvoice-verdict')).toHaveAttribute('data-valid', 'true');
  const number = (await readFile(path.join(CORPUS, VALID), 'utf8')).match(/<rsm:ExchangedDocument>\s*<ram:ID>([^<]+)</)?.[1];
  expect(number, 'the corpus file has an invoice number').toBeTruthy();

  await page.getByRole('button', { name: 'Draw as PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText(number!, { timeout: 90_000 });
  await expect(page.getByTestId('readable-report')).toContainText('EN 16931 rules: 0 fatal');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
});
