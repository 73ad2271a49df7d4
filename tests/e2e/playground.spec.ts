// The playground: public at /playground with no token, and inside /admin. Render, see the PDF
// inline, download it, copy the equivalent call; bounds and API errors are shown as sentences.

import { readFile } from 'node:fs/promises';
import { test, expect, snap } from './fixtures.ts';
import { odt } from '../helpers/office-fixtures.ts';
import { officeMissing } from '../helpers/office-available.ts';
import { detach } from '../helpers/attached-files.ts';

test('the public playground renders HTML inline, downloads the PDF and shows the equivalent curl', async ({ page }, testInfo) => {
  await page.goto('/playground');
  await expect(page.getByRole('heading', { name: 'Playground' })).toBeVisible();
  await expect(page.getByText('Sign in with the admin token')).toHaveCount(0);
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Quarterly report</h1><p>Rendered in the playground.</p>');
  await page.getByText('Page options', { exact: true }).click();
  await page.getByLabel('Format').selectOption('A5');
  await page.getByLabel('Landscape').check();
  await page.getByRole('button', { name: 'Render PDF' }).click();

  const preview = page.getByTestId('pdf-preview');
  await expect(preview).toHaveAttribute('data-pages', '1');
  await expect(page.getByTestId('pdf-text')).toContainText('Quarterly report');
  await expect(page.getByTestId('render-facts')).toContainText('renders left this minute');
  // A5 landscape: the drawn page is wider than tall.
  const box = await preview.locator('canvas').first().boundingBox();
  expect(box!.width).toBeGreaterThan(box!.height);

  // A visitor has no key: the keyless call is shown first, the keyed one a tab away.
  const code = page.getByRole('region', { name: /Equivalent request/ }).or(page.locator('pre.code'));
  await expect(code.first()).toContainText('/v1/playground/pdf');
  await expect(code.first()).toContainText('"landscape":true');
  await page.getByRole('tab', { name: 'curl (API key)' }).click();
  await expect(page.locator('pre.code')).toContainText('/v1/pdf');
  await expect(page.locator('pre.code')).toContainText('Authorization: Bearer $QUIRE_API_KEY');
  await snap(page, testInfo, 'playground-public');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('playground.pdf');
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
});

test('playground bounds are checked in the form and API refusals are shown as their detail', async ({ page }) => {
  await page.goto('/playground');
  await page.getByText('Page options', { exact: true }).click();
  await page.getByLabel('Scale').fill('3');
  await expect(page.getByText('Scale must be between 0.1 and 2')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Render PDF' })).toBeDisabled();
  await page.getByLabel('Scale').fill('1.5');
  await expect(page.getByRole('button', { name: 'Render PDF' })).toBeEnabled();

  await page.getByText('URL', { exact: true }).click();
  await page.getByLabel('Public URL').fill('http://127.0.0.1:9/private');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByRole('alert')).toHaveText('The url is not allowed: it must be a public http(s) address.');
});

test('the playground is also a screen of the admin window', async ({ admin: page }, testInfo) => {
  await page.goto('/admin/keys');
  await page.getByRole('link', { name: 'Playground' }).click();
  await expect(page).toHaveURL(/\/admin\/playground$/);
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('Hello from Quire');
  await snap(page, testInfo, 'playground-admin');
});

test('the playground form sends the document options: a watermark shows in the PDF, the call carries metadata and encryption', async ({ page }) => {
  await page.goto('/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<title>Form title</title><h1>Watermarked</h1>');
  await page.getByText('Document options', { exact: true }).click();
  await page.getByLabel('Author').fill('Ada');
  await page.getByLabel('Outline from headings').check();
  await page.getByLabel('Watermark text').fill('SAMPLE');
  await page.getByLabel('Watermark pages').fill('1');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('SAMPLE');
  const code = page.locator('pre.code').first();
  await expect(code).toContainText('"watermark":{"text":"SAMPLE","pages":"1"}');
  await expect(code).toContainText('"metadata":{"author":"Ada"}');
  await expect(code).toContainText('"outline":true');
  await page.getByLabel('Owner password').fill('owner-secret');
  await expect(code).toContainText('"encrypt":{"owner_password":"owner-secret"}');
  // The url-only panel appears for URLs only, and its fields stay out of an html request.
  await expect(page.getByText('Request to the URL', { exact: true })).toHaveCount(0);
  await page.getByText('URL', { exact: true }).click();
  await page.getByText('Request to the URL', { exact: true }).click();
  await page.getByLabel('User agent').fill('QuireBot');
  await expect(code).toContainText('"user_agent":"QuireBot"');
});

test('the admin playground converts an office file in its Office file tab', async ({ admin: page }) => {
  test.skip(officeMissing !== false, `playground.spec.ts office tab: ${officeMissing}`);
  await page.goto('/admin/playground');
  await page.getByText('Office file', { exact: true }).click();
  await page
    .getByTestId('office-file')
    .setInputFiles({ name: 'memo.odt', mimeType: 'application/vnd.oasis.opendocument.text', buffer: Buffer.from(odt(['Office memo text'])) });
  await page.getByLabel('Landscape').check();
  await page.getByRole('button', { name: 'Convert to PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('Office memo text', { timeout: 60_000 });
  const box = await page.getByTestId('pdf-preview').locator('canvas').first().boundingBox();
  expect(box!.width).toBeGreaterThan(box!.height);
  await expect(page.locator('pre.code')).toContainText("-F 'file=@memo.odt'");
  await expect(page.locator('pre.code')).toContainText("-F 'landscape=true'");
});

test('the playground draws a header and footer from its form: none on the cover, page X of Y below', async ({ page }) => {
  await page.goto('/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Cover</h1><h2 style="break-before:page">Results</h2>');
  await page.getByText('Header and footer', { exact: true }).click();
  await page.getByLabel('Header: every page').fill('<div style="text-align:right">Report · {{section}}</div>');
  await page.getByLabel('No header on the first page (a cover)').check();
  await page.getByLabel('Footer: every page').fill('<div style="text-align:center">Page {{page}} of {{pages}}</div>');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-preview')).toHaveAttribute('data-pages', '2');
  await expect(page.getByTestId('pdf-text')).toContainText('Page 1 of 2');
  await expect(page.getByTestId('pdf-text')).toContainText('Report · Results');
  await expect(page.locator('pre.code').first()).toContainText('"first":false');
});

test('the playground form attaches files and makes an e-invoice: pdfdetach finds them in the PDF it rendered', async ({ page }) => {
  await page.goto('/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Invoice FA-2026-017</h1>');
  await page.getByText('Document options', { exact: true }).click();
  await page.getByLabel('Attach files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Delivery notes') });
  await page.getByLabel('notes.txt').selectOption('Supplement');
  const xml = await readFile(new URL('../fixtures/factur-x-minimum.xml', import.meta.url), 'utf8');
  await page.getByLabel('Invoice XML').setInputFiles({ name: 'invoice.xml', mimeType: 'text/xml', buffer: Buffer.from(xml) });
  await page.getByLabel('Profile').selectOption('MINIMUM');
  const answer = page.waitForResponse((response) => response.url().endsWith('/v1/playground/pdf') && response.request().method() === 'POST');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  const files = detach(new Uint8Array(await response.body()));
  expect(files.map((file) => file.name).sort()).toEqual(['factur-x.xml', 'notes.txt']);
  expect(files.find((file) => file.name === 'factur-x.xml')?.bytes.toString('utf8')).toBe(xml);
  await expect(page.locator('pre.code').first()).toContainText('"relationship":"Supplement"');
});
