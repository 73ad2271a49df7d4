// PDF/UA in the playground and the template studio (issue 42 item 4): the options offer pdf_ua and
// the language; a passing render says the X-PDF-UA verdict and its receipt lists what needs a
// person; a refused one (422 accessibility_failed) lists each failed Matterhorn condition with its page.

import { test, expect } from './fixtures.ts';

const SKIPPED_LEVEL = '<!doctype html><html lang="en"><head><title>Skipped</title></head><body><h1>Report</h1><h3>Detail</h3><p>Text</p></body></html>';

test('playground: PDF/UA-1 is offered, its verdict shown, and a refused file lists the failed conditions', async ({ page }) => {
  await page.goto('/playground');
  await page.getByText('Document options', { exact: true }).click();
  await page.getByLabel('PDF/UA').selectOption('PDF/UA-1');
  await page.getByRole('textbox', { name: 'Language' }).fill('en-GB');
  await expect(page.locator('pre.code').first()).toContainText('"pdf_ua":"PDF/UA-1","lang":"en-GB"');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  const verdict = page.locator('.applied-steps li[data-step="pdf_ua"]');
  await expect(verdict).toHaveAttribute('data-applied', 'true');
  await expect(verdict).toContainText(/PDF\/UA-1: \d+ checks, 0 failed/);
  // The receipt's accessibility section: nothing failed, and what a machine cannot decide.
  await page.locator('.playground-receipt summary').click();
  const section = page.getByRole('region', { name: 'Accessibility', exact: true });
  await expect(section).toContainText('none failed');
  await expect(section.getByRole('list', { name: 'Needs a person' }).getByRole('listitem').first()).toBeVisible();

  // Headings out of order cannot be fixed: 422, each failed condition with its Matterhorn number and page.
  await page.getByRole('textbox', { name: /^HTML/ }).fill(SKIPPED_LEVEL);
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByRole('alert')).toContainText('14-003');
  const failed = page.getByRole('table', { name: 'Failed conditions' });
  const row = failed.locator('tr[data-condition="14-003"]').first();
  await expect(row).toBeVisible();
  // The server places a heading finding on the page of the heading's content (issue 42): page 1.
  await expect(row.locator('td').nth(1)).toHaveText('1');
  await expect(page.getByTestId('ua-report').getByRole('list', { name: 'Needs a person' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download' })).toBeDisabled();
});

test('studio: the preview is made with PDF/UA-1 and says the verdict, or lists the failed conditions', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter');
  const html = '<!doctype html><html lang="en"><head><title>Letter</title></head><body><h1>Dear {{name}}</h1></body></html>';
  const created = await quire.admin('POST', '/admin/v1/templates', { key_id: key.id, name: 'UA letter', html, sample_data: { name: 'Ada' } });
  expect(created.status).toBe(201);
  const { template_id: id } = (await created.json()) as { template_id: string };
  await page.goto(`/admin/templates/${id}`);
  await expect(page.getByTestId('preview-status')).toContainText('Rendered in');
  await page.getByTestId('running-pane').locator('summary').click();
  await page.getByLabel('PDF/UA').selectOption('PDF/UA-1');
  await expect(page.getByTestId('preview-status')).toContainText(/PDF\/UA-1: \d+ checks, 0 failed/);

  const editor = page.getByRole('textbox', { name: 'HTML', exact: true });
  await editor.fill(SKIPPED_LEVEL);
  const row = page.getByTestId('ua-report').locator('tr[data-condition="14-003"]').first();
  await expect(row).toBeVisible();
  // The server places a heading finding on the page of the heading's content (issue 42): page 1.
  await expect(row.locator('td').nth(1)).toHaveText('1');
});
