// The E-invoices screen (issue 41, item 5) on XML from the shared corpus (read where it lies, never
// copied in): a dropped file's facts and verdict, a broken file's fatal rules as the official
// verdict names them (expected.json), fatal lines before warnings in every rule set, the JSON
// download, and an unreadable file refused with the API's own sentence. At 1400 and 1024 px.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, expectNoHorizontalScroll, snap } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

const CORPUS = path.join(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice-corpus');
const VALID = 'examples/cii/CII_business_example_01.xml';
const BROKEN = 'broken/cii-br-co-10-line-total-mismatch.xml';
type Verdicts = Record<'en16931' | 'xrechnung' | 'peppol', string[]>;
const EXPECTED = JSON.parse(await readFile(path.join(CORPUS, 'expected.json'), 'utf8')) as { files: Record<string, { fatal: Verdicts; warnings: Verdicts }> };

const corpusFile = async (name: string) => ({ name: path.basename(name), mimeType: 'text/xml', buffer: await readFile(path.join(CORPUS, name)) });

/** Drops a file on the drop zone as a person's drag would: a drop event whose DataTransfer holds it. */
async function dropFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, mimeType, text }) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: mimeType }));
      return data;
    },
    { name: file.name, mimeType: file.mimeType, text: file.buffer.toString('utf8') },
  );
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
}

/** The rows of the findings table shown: [severity, rule id] in screen order. */
async function findingRows(page: Page): Promise<[string, string][]> {
  const rows = page.locator('.rule-table tbody tr');
  return (await rows.evaluateAll((found) => found.map((row) => [row.getAttribute('data-severity'), row.getAttribute('data-rule')]))) as [string, string][];
}

for (const width of [1400, 1024]) {
  test(`at ${width} px: a dropped valid corpus XML shows its facts, passes EN 16931, and its JSON downloads`, async ({ admin: page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/einvoices');
    await expect(page.getByRole('link', { name: 'E-invoices' })).toHaveAttribute('aria-current', 'page');
    await dropFile(page, await corpusFile(VALID));

    const verdict = page.getByTestId('einvoice-verdict');
    await expect(verdict).toHaveAttribute('data-valid', 'true');
    await expect(verdict).toContainText('Passes the EN 16931 rules');
    const facts = page.getByTestId('einvoice-facts');
    await expect(facts).toContainText('CII');
    await expect(facts).toContainText('EN 16931');
    // An XML sent as it is was read from no PDF (the screen once said "the PDF's undefined").
    await expect(facts).not.toContainText('Read from');
    await expect(page.getByTestId('invoice-seller')).not.toContainText('—');
    await expect(page.getByRole('table', { name: 'Invoice lines' }).locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('invoice-totals')).toContainText('Amount due');
    await expectNoHorizontalScroll(page);
    await snap(page, testInfo, `einvoices-valid-${width}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('CII_business_example_01.json');
    const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as { number?: string; seller?: { name?: string } };
    const xml = (await readFile(path.join(CORPUS, VALID), 'utf8')).replace(/\s+/g, ' ');
    expect(json.number, 'the invoice number (BT-1) in the JSON').toBeTruthy();
    expect(xml).toContain(`<ram:ID>${json.number}</ram:ID>`);
    expect(xml).toContain(`${json.seller?.name}`);
  });
}

test('a broken corpus XML fails on the official fatal rules, fatal lines first in every rule set', async ({ admin: page }, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 900 });
  await page.goto('/admin/einvoices');
  // By its label, as a screen reader and the keyboard reach it.
  await page.getByLabel('E-invoice file (XML or PDF)').setInputFiles(await corpusFile(BROKEN));

  const verdict = page.getByTestId('einvoice-verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'false');
  await expect(verdict).toContainText('Fails the EN 16931 rules');
  const expected = EXPECTED.files[BROKEN]!;
  await expect(page.locator('.rule-table tbody tr[data-rule="BR-CO-10"][data-severity="fatal"]').first()).toBeVisible();

  for (const [set, label] of [
    ['en16931', 'EN 16931'],
    ['xrechnung', 'XRechnung'],
    ['peppol', 'Peppol BIS 3.0'],
  ] as const) {
    await page.getByRole('radiogroup', { name: 'Rule set' }).getByText(label, { exact: true }).click();
    await expect(page.getByRole('table', { name: `${label} findings` })).toBeVisible();
    const rows = await findingRows(page);
    const severities = rows.map(([severity]) => severity);
    // Fatal lines first: no fatal line after the first warning.
    expect(severities, `${label}: fatal before warnings`).toEqual([...severities].sort((a, b) => (a === b ? 0 : a === 'fatal' ? -1 : 1)));
    const fatalIds = [...new Set(rows.filter(([severity]) => severity === 'fatal').map(([, id]) => id))].sort();
    expect(fatalIds, `${label}: the official fatal ids`).toEqual(expected.fatal[set]);
  }
  // The XRechnung set has both kinds on this file: the ordering above was put to the test.
  expect(expected.warnings.xrechnung.length).toBeGreaterThan(0);
  await expectNoHorizontalScroll(page);
  await snap(page, testInfo, 'einvoices-broken-1024');
});

test('a file that is not an e-invoice shows the API’s sentence, and no report', async ({ admin: page, quire }) => {
  const junk = Buffer.from('<?xml version="1.0"?><note><to>nobody</to></note>');
  const answer = await fetch(`${quire.url}/admin/v1/einvoice/inspect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${quire.adminToken}`, 'content-type': 'application/xml' },
    body: junk,
  });
  expect(answer.status).toBe(422);
  const { detail, code } = (await answer.json()) as { detail: string; code: string };
  expect(code).toBe('einvoice_unreadable');

  await page.goto('/admin/einvoices');
  await page.getByTestId('einvoice-file').setInputFiles({ name: 'note.xml', mimeType: 'text/xml', buffer: junk });
  await expect(page.getByRole('alert')).toHaveText(detail);
  await expect(page.getByTestId('einvoice-verdict')).toHaveCount(0);
});
