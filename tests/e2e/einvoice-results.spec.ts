// The rule report where e-invoices are made (issue 41, item 5): the playground lists the rules of a
// refused e-invoice (400 einvoice_invalid's rules) under its error, and a receipt shows the report
// its steps recorded.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from './fixtures.ts';
import { ruleReportsOf } from '../../ui/src/lib/rule-reports.ts';

test.describe.configure({ timeout: 180_000 });

const CORPUS = path.join(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice-corpus');
const BROKEN = 'broken/cii-br-co-10-line-total-mismatch.xml';
const INVOICE = JSON.parse(await readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'examples', 'invoice.json'), 'utf8')) as Record<string, unknown>;

test('the playground lists the rules a refused e-invoice breaks', async ({ admin: page, quire }) => {
  const xml = await readFile(path.join(CORPUS, BROKEN));
  const probe = await quire.render({ html: '<p>x</p>', options: { wait_until: 'load', e_invoice: { profile: 'EN 16931', xml: xml.toString('utf8') } } });
  const answer = probe.status === 400 ? ((await probe.json()) as { code: string; rules?: { id: string }[] }) : undefined;
  expect(answer?.rules?.map((rule) => rule.id)).toContain('BR-CO-10');

  await page.goto('/admin/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Invoice 2026-001</h1>');
  await page.getByText('Document options', { exact: true }).click();
  await page.getByLabel('Profile').selectOption('EN 16931');
  await page.getByLabel('Invoice XML').setInputFiles({ name: 'invoice.xml', mimeType: 'text/xml', buffer: xml });
  await expect(page.getByText('XML chosen')).toBeVisible();
  await page.getByRole('button', { name: 'Render PDF' }).click();
  const rules = page.getByRole('table', { name: 'Rules the e-invoice breaks' });
  await expect(rules.locator('tr[data-rule="BR-CO-10"][data-severity="fatal"]')).toBeVisible({ timeout: 90_000 });
  await expect(rules.locator('tr[data-rule="BR-CO-13"]')).toBeVisible();
});

test('a receipt shows the e-invoice rule report its steps recorded', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter', { name: 'e-invoice receipts' });
  await quire.admin('PATCH', `/admin/v1/keys/${key.id}`, { receipts: 'all' });
  const made = await quire.render(
    { html: '<h1>Invoice</h1>', options: { wait_until: 'load', e_invoice: { profile: 'EN 16931', invoice: INVOICE } } },
    { authorization: `Bearer ${key.key}` },
  );
  expect(made.status).toBe(200);
  const receiptId = made.headers.get('x-render-receipt')!.split('/').at(-1)!;
  const receipt = (await (await quire.admin('GET', `/admin/v1/receipts/${receiptId}`)).json()) as {
    steps?: { step: string; report: Record<string, unknown> | null }[];
  };
  expect(ruleReportsOf(receipt.steps).length, 'the receipt records the rule report').toBeGreaterThan(0);

  await page.goto('/admin/activity');
  await page.locator(`tr[data-receipt-id="${receiptId}"]`).getByRole('button', { name: 'Receipt' }).click();
  const reports = page.getByRole('dialog', { name: 'Receipt' }).getByRole('region', { name: 'E-invoice rules' });
  await expect(reports).toContainText(/EN 16931 rules: 0 fatal/);
});
