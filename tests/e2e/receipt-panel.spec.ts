// The receipt panel of the Activity screen (issue #30 item 5): it opens in view beside the table
// (not thousands of pixels below it), closes with its button and with Escape, closes when the
// filters hide its row, and says things once, in words, without Quire's internal names.

import { test, expect, snap } from './fixtures.ts';

test('a receipt opens in view, closes with its button, Escape, and when the filter hides its row', async ({ admin: page, quire }, testInfo) => {
  const key = await quire.createKey('starter', { name: 'panel key' });
  await quire.admin('PATCH', `/admin/v1/keys/${key.id}`, { receipts: 'all' });
  await page.goto('/admin/activity');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const response = await quire.render(
    {
      html: '<h1>Panel</h1><img src="http://10.20.30.40/logo.png"><img src="http://10.20.30.41/mark.png"><script>console.error("boom")</script>',
      options: { wait_until: 'load' },
    },
    { authorization: `Bearer ${key.key}` },
  );
  expect(response.status).toBe(200);
  const receiptId = response.headers.get('x-render-receipt')!.split('/').at(-1)!;
  const row = page.locator(`tr[data-receipt-id="${receiptId}"]`);
  await expect(row).toBeVisible();

  const panel = page.getByRole('dialog', { name: 'Receipt' });
  const open = async () => {
    await row.getByRole('button', { name: 'Receipt' }).click();
    await expect(panel.locator(`.receipt[data-receipt-id="${receiptId}"]`)).toBeVisible();
  };

  await open();
  // In view: the panel sits inside the window, its head at the top.
  const box = (await panel.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y).toBeLessThanOrEqual(1);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
  expect(box.x).toBeGreaterThan(0);
  const listed = await panel.getByRole('table', { name: 'Requests of the render' }).locator('tbody tr').count();
  expect(listed).toBeGreaterThanOrEqual(2);
  await expect(panel.getByText(`${listed} requests`, { exact: true })).toBeVisible();
  await expect(panel.getByText('2 requests were refused by the network guard, see Blocked')).toBeVisible();
  await expect(panel.getByText('Options in force')).toBeVisible();
  await expect(panel.locator('.receipt-options')).toContainText('wait_until');
  await expect(panel.getByRole('table', { name: 'Requests of the render' }).locator('tr[data-blocked="true"] td').nth(2)).toHaveText('—');
  await expect(panel.locator('.receipt-console')).toContainText('in the document, line 1');
  const text = (await panel.textContent()) ?? '';
  expect(text).not.toContain('render.invalid');
  expect(text).not.toContain('(s)');
  await snap(page, testInfo, 'receipt-panel');

  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Receipt' })).toBeFocused();

  await open();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);

  await open();
  await page.getByLabel('Status').selectOption('failed');
  await expect(panel).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');
  await expect(row.getByRole('button', { name: 'Receipt' })).toHaveAttribute('aria-pressed', 'false');
});

test('the receipt panel at 1400 and 1024 px wide: in the window, no sideways scroll', async ({ admin: page, quire }, testInfo) => {
  await quire.admin('PATCH', `/admin/v1/keys/${quire.key.id}`, { receipts: 'all' });
  const response = await quire.render({
    html: `<h1>Wide</h1><img src="http://10.20.30.40/a-rather-long-path/to/an/image/that/wraps/logo.png?size=large&amp;format=png">`,
    options: { wait_until: 'load' },
  });
  const receiptId = response.headers.get('x-render-receipt')!.split('/').at(-1)!;
  for (const width of [1400, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/activity');
    await page.locator(`tr[data-receipt-id="${receiptId}"]`).getByRole('button', { name: 'Receipt' }).click();
    const panel = page.getByRole('dialog', { name: 'Receipt' });
    await expect(panel.locator('.receipt')).toBeVisible();
    const overflow = await panel.locator('.side-panel-body').evaluate((body) => body.scrollWidth - body.clientWidth);
    expect(overflow, `the panel scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/receipt-panel-${width}.png` });
    await testInfo.attach(`receipt-panel-${width}`, { path: `test-results/screenshots/receipt-panel-${width}.png`, contentType: 'image/png' });
  }
});
