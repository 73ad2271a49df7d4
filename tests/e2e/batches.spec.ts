// Batches in the admin window: a background batch appears and its progress bar moves to
// completed live (Server-Sent Events from GET /admin/v1/events); per-item results with error codes.

import { test, expect, snap } from './fixtures.ts';

test('batch progress reaches completed live, with per-item results and error codes', async ({ admin: page, quire, serverHas }, testInfo) => {
  test.skip(!(await serverHas('/admin/v1/batches')), 'batches API not built yet (issue 6)');
  test.skip(!(await serverHas('/admin/v1/events')), 'admin events stream not built yet (issue 6)');
  const key = await quire.createKey('starter', { name: 'Mailings' });

  await page.goto('/admin/batches');
  await expect(page.getByText('Live')).toBeVisible();
  const items = [
    ...[1, 2, 3].map((n) => ({ html: `<h1>Letter ${n}</h1>`, filename: `letter-${n}.pdf` })),
    { url: 'http://127.0.0.1:9/unreachable', filename: 'blocked.pdf' },
  ];
  const response = await fetch(`${quire.url}/v1/pdf/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ async: true, requests: items, options: { wait_until: 'load' } }),
  });
  // A url refused at validation fails the whole call; then send the good items only.
  let batchId: string;
  if (response.status === 400) {
    const retry = await fetch(`${quire.url}/v1/pdf/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ async: true, requests: items.slice(0, 3), options: { wait_until: 'load' } }),
    });
    expect(retry.status).toBe(202);
    batchId = ((await retry.json()) as { batch_id: string }).batch_id;
  } else {
    expect(response.status).toBe(202);
    batchId = ((await response.json()) as { batch_id: string }).batch_id;
  }

  // No reload: the row appears and completes through the event stream.
  const row = page.locator(`tr[data-batch-id="${batchId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 45_000 });
  const total = response.status === 400 ? 3 : 4;
  await expect(row.getByTestId('batch-counts')).toContainText(`${total}/${total}`);
  await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(total));

  await row.getByRole('button', { name: batchId }).click();
  const detail = page.getByRole('table', { name: `Items of ${batchId}` });
  await expect(detail.getByRole('row')).toHaveCount(total + 1);
  if (total === 4) await expect(detail).toContainText(/url_blocked|navigation_failed/);
  await snap(page, testInfo, 'batches');
});
