// The admin playground's Office file tab with a header and footer: the shared header and footer
// form, the fit and box margin, data for the placeholders; the preview, the downloaded PDF (read
// page by page) and the curl call carry them. LibreOffice converts for real (about 10 s cold).

import { readFile } from 'node:fs/promises';
import { test, expect, expectNoHorizontalScroll, snap } from './fixtures.ts';
import { chapters } from '../helpers/office-fixtures.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { officeMissing } from '../helpers/office-available.ts';

test.skip(officeMissing !== false, `office-playground.spec.ts: ${officeMissing}`);

const FOOTER = '<div style="text-align:center">Page {{page}} of {{pages}}</div>';

test('the office playground draws a header and footer on the converted pages: page X of Y, sections, data', async ({ admin: page }, testInfo) => {
  await page.goto('/admin/playground');
  await page.getByText('Office file', { exact: true }).click();
  await page.getByTestId('office-file').setInputFiles({
    name: 'annual-report.odt',
    mimeType: 'application/vnd.oasis.opendocument.text',
    buffer: Buffer.from(chapters(['Introduction', 'Methods', 'Results'])),
  });

  await page.getByText('Header and footer', { exact: true }).click();
  await page.getByLabel('Header: every page').fill('<div style="text-align:right">{{customer.name}} · {{section}}</div>');
  await page.getByLabel('Footer: every page').fill(FOOTER);
  await expect(page.getByText('Each page’s content is scaled down')).toBeVisible();
  await page.getByLabel('Fit').selectOption('margin');
  await expect(page.getByText('Drawn at full size in the page’s own margin')).toBeVisible();
  await page.getByLabel('Box margin').fill('8mm');

  // Data is checked as it is typed: a broken object keeps the conversion from starting.
  const data = page.getByRole('textbox', { name: 'Data (JSON)' });
  await data.fill('{"customer": ');
  await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Convert to PDF' })).toBeDisabled();
  await data.fill('{"customer": {"name": "ACME"}}');
  await expect(page.getByRole('button', { name: 'Convert to PDF' })).toBeEnabled();

  await page.getByRole('button', { name: 'Convert to PDF' }).click();
  const preview = page.getByTestId('pdf-preview');
  await expect(preview).toHaveAttribute('data-pages', '3', { timeout: 60_000 });
  await expect(page.getByTestId('pdf-text')).toContainText('Page 1 of 3');
  await expect(page.getByTestId('pdf-text')).toContainText('ACME · Methods');
  await snap(page, testInfo, 'office-playground-header-footer');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('annual-report.pdf');
  const pdf = await inspectPdf(await readFile((await download.path())!));
  expect(pdf.pages.map((each) => each.text.match(/Page \d of \d/)?.[0])).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
  expect(pdf.pages.map((each) => each.text.match(/ACME · \w+/)?.[0])).toEqual(['ACME · Introduction', 'ACME · Methods', 'ACME · Results']);
  expect(pdf.pages[1]!.text).toContain('Text of Methods');

  // The call from code sends the same fields; HTML goes as --form-string, which curl never reads as a file name.
  const code = page.locator('pre.code');
  await expect(code).toContainText(`--form-string 'footer=${FOOTER}'`);
  await expect(code).toContainText("-F 'header_footer_fit=margin'");
  await expect(code).toContainText("-F 'header_footer_margin=8mm'");
  await expect(code).toContainText(`-F 'data={"customer":{"name":"ACME"}}'`);

  await page.setViewportSize({ width: 1024, height: 700 });
  await expectNoHorizontalScroll(page);
});
