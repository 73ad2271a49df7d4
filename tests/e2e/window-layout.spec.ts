// Issue 39 items 16, 19 and 20 on the template studio and the playground: a new template's starter
// is an invoice, so "Write the invoice from the template's data" works on it as it stands, and
// ordinary data is told what an invoice lacks (not zod's words, not "does not add up"); the render
// options pane is no scroll box pushing the preview below the fold, and its Certificate field is
// inside its padding; "Sign as key" stays on one line; the office tab is in the address.

import type { Locator, Page } from '@playwright/test';
import { test, expect, expectNoHorizontalScroll } from './fixtures.ts';

test.describe.configure({ timeout: 180_000 });

/** Whether the element's text fits on one line (its height under 1.5 line heights). */
async function isOneLine(element: Locator): Promise<boolean> {
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
    return node.getBoundingClientRect().height < line * 1.5;
  });
}

/** The next studio preview sent with an e-invoice, and its status. */
function nextInvoicePreview(page: Page): Promise<number> {
  return page
    .waitForResponse((response) => response.url().endsWith('/admin/v1/templates/preview') && (response.request().postData() ?? '').includes('"from_data":true'))
    .then((response) => response.status());
}

test('a new template writes its e-invoice as it stands; other data is told what it lacks; the options pane leaves the preview in view', async ({
  admin: page,
  quire,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await quire.createKey('business', { name: 'Invoicing' });
  await page.goto('/admin/templates');
  await page.getByRole('button', { name: 'New template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New template' });
  await dialog.getByLabel('Name').fill('Invoice');
  await dialog.getByRole('button', { name: 'Create and edit' }).click();
  await expect(page).toHaveURL(/\/admin\/templates\/tpl_/);
  await expect(page.getByTestId('preview-status')).toContainText('Rendered in');

  const pane = page.getByTestId('running-pane');
  await pane.getByText('Header and footer, PDF/A, signature, attachments, e-invoice').click();
  // No scroll box of its own, and the preview still starts in the first screenful.
  expect(await pane.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(1);
  await page.evaluate(() => window.scrollTo(0, 0));
  const preview = await page.getByRole('region', { name: 'Preview' }).boundingBox();
  expect(preview!.y + 300, 'the preview’s top 300 px are above the fold').toBeLessThan(900);
  // The Certificate field sits inside the pane's padding, like the fields around it.
  const paneBox = (await pane.boundingBox())!;
  const certificate = (await pane.getByLabel('Certificate', { exact: true }).boundingBox())!;
  expect(certificate.x - paneBox.x, 'the Certificate field’s distance from the pane’s border').toBeGreaterThanOrEqual(8);
  await expectNoHorizontalScroll(page);

  const written = nextInvoicePreview(page);
  await pane.getByText('Write the invoice from the template’s data').click();
  expect(await written, 'the starter’s preview with its e-invoice').toBe(200);
  await expect(page.getByRole('region', { name: 'Preview' }).getByRole('alert')).toHaveCount(0);

  const refused = nextInvoicePreview(page);
  await page.getByLabel('Sample data (JSON)').fill('{"number": "F-1", "customer": "Ada"}');
  expect(await refused).toBe(400);
  const alert = page.getByRole('region', { name: 'Preview' }).getByRole('alert');
  await expect(alert).toContainText('The data is not a complete invoice');
  await expect(alert).toContainText('data lacks issue_date, currency, seller, buyer and lines');
  await expect(alert).not.toContainText('Invalid input');
  await expect(alert).not.toContainText('does not add up');
});

for (const width of [1400, 1024]) {
  test(`"Sign as key" stays on one line beside a select of full width at ${width} px`, async ({ admin: page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/playground');
    await page.getByText('Document options', { exact: true }).click();
    const label = page.locator('label[for="opt-sign-key"]');
    await expect(label).toBeVisible();
    expect(await isOneLine(label), '"Sign as key" on one line').toBe(true);
    const select = (await page.locator('#opt-sign-key').boundingBox())!;
    const field = (await label.locator('..').boundingBox())!;
    expect(select.width, 'the select as wide as its field').toBeGreaterThanOrEqual(field.width - 1);
    await expectNoHorizontalScroll(page);
  });
}

test('the office tab is in the address, and a reload keeps it', async ({ admin: page }) => {
  await page.goto('/admin/playground');
  await page.getByText('Office file', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/playground\?tab=office$/);
  await page.reload();
  await expect(page.getByTestId('office-file')).toBeAttached();
  await page.getByText('Web page', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/playground$/);
});
