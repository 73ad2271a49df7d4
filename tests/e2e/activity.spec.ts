// The Activity screen (docs/operations.md#the-activity-screen), live over the admin event stream:
// a render shows up in the table within a second of its answer, its receipt shows a request to a
// private address blocked in red, a failed render's receipt is one click away, and the charts
// move when renders come in.

import { test, expect, snap } from './fixtures.ts';

test('a render appears in the table within a second; its receipt shows the blocked private-address request in red', async ({
  admin: page,
  quire,
}, testInfo) => {
  const key = await quire.createKey('starter', { name: 'activity watcher' });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  const response = await quire.render(
    { html: '<h1>Logo test</h1><img src="http://10.20.30.40/logo.png" alt="logo">', options: { receipt: true, wait_until: 'load' } },
    { authorization: `Bearer ${key.key}` },
  );
  expect(response.status).toBe(200);
  const receiptId = response.headers.get('x-render-receipt')!.split('/').at(-1)!;
  const row = page.locator(`tr[data-receipt-id="${receiptId}"]`);
  // Within a second of the answer: the render.completed event, not a poll, brings it.
  await expect(row).toBeVisible({ timeout: 1_000 });
  await expect(row).toContainText('activity watcher');
  await expect(row).toContainText('succeeded');
  // A 24-hour time like everything else in the window (issue 39, 17: "08:15:32 PM" under en-US).
  await expect(row.locator('td').first()).toHaveText(/^\d\d:\d\d:\d\d$/);

  await row.getByRole('button', { name: 'Receipt' }).click();
  const receipt = page.locator(`.receipt[data-receipt-id="${receiptId}"]`);
  const blocked = receipt.locator('tr[data-blocked="true"]');
  await expect(blocked).toHaveCount(1);
  await expect(blocked).toContainText('http://10.20.30.40/logo.png');
  await expect(blocked).toContainText('Blocked:');
  // --danger (ui/src/styles/base.css, #b91c1c: darkened for contrast by the axe audit).
  await expect(blocked.locator('td').first()).toHaveCSS('color', 'rgb(185, 28, 28)');
  await expect(blocked.locator('.waterfall-bar')).toHaveCSS('background-color', 'rgb(185, 28, 28)');
  await expect(receipt.getByRole('table', { name: 'Fonts in the PDF' })).toBeVisible();
  await expect(receipt.getByText(/refused by the network guard/)).toBeVisible();
  await snap(page, testInfo, 'activity-receipt');
});

test('a failed render’s receipt is one click from the table, filtered by status and key', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter', { name: 'failing key' });
  await quire.admin('PATCH', `/admin/v1/keys/${key.id}`, { receipts: 'all' });
  await page.goto('/admin/activity');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const failed = await quire.render(
    { html: '<p>no such element</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } },
    { authorization: `Bearer ${key.key}` },
  );
  expect(failed.status).toBe(504);
  await page.getByLabel('Key').selectOption(key.id);
  await page.getByLabel('Status').selectOption('failed');
  const rows = page.getByRole('table', { name: 'Recent renders' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('render_timeout');
  await rows.first().getByRole('button', { name: 'Receipt' }).click();
  await expect(page.locator('.receipt .receipt-error')).toContainText('render_timeout');
  await expect(page.locator('.receipt')).toContainText('#never never matched');
});

test('the charts move under load', async ({ admin: page, quire }) => {
  await page.goto('/admin/activity');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const charts = page.getByTestId('activity-charts');
  await expect(charts.locator('canvas')).toHaveCount(4);
  const perMinute = charts.locator('figure', { hasText: 'Renders per minute' });
  const before = Number(await perMinute.getAttribute('data-total'));
  const renders = await Promise.all(Array.from({ length: 4 }, (_, i) => quire.render({ html: `<p>load ${i}</p>`, options: { wait_until: 'load' } })));
  expect(renders.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  await expect(perMinute).toHaveAttribute('data-total', String(before + 4));
  await expect(page.getByTestId('renders-last-hour')).not.toHaveText('0');
  const duration = charts.locator('figure', { hasText: 'Duration' });
  await expect(duration).not.toHaveAttribute('data-total', '0');
});

test('the public playground shows its render’s receipt, read with the id only its answer named', async ({ page }) => {
  await page.goto('/playground');
  await page.getByRole('textbox', { name: /^HTML/ }).fill('<h1>Receipt</h1><img src="http://192.168.7.7/chart.png">');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  const receipt = page.locator('details.playground-receipt');
  await expect(receipt.locator('summary')).toContainText('1 blocked');
  await receipt.locator('summary').click();
  await expect(receipt.locator('tr[data-blocked="true"]')).toContainText('http://192.168.7.7/chart.png');
});
