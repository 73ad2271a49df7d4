// Keys in the admin window: sign in with the token, create a key (shown once, copyable), render
// with it and watch its usage move, change its plan, rotate it (new key shown once), revoke it.

import { test, expect, snap } from './fixtures.ts';

test('signing in asks for the admin token, refuses a wrong one and keeps the right one for the tab', async ({ page, quire }, testInfo) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Sign in with the admin token' })).toBeVisible();
  await snap(page, testInfo, 'sign-in');
  await page.getByLabel('Admin token').fill('not-the-token-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That is not the admin token of this server.');
  await page.getByLabel('Admin token').fill(quire.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Activity is the first screen after sign-in.
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in with the admin token' })).toBeVisible();
});

test('create a key, render with it and see its usage move; change plan, rotate, revoke', async ({ admin: page, quire }, testInfo) => {
  await page.goto('/admin/keys');
  await page.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByLabel('Name').fill('Billing service');
  await dialog.getByLabel('Plan', { exact: true }).selectOption('starter');
  await dialog.getByLabel(/Auto-store/).check();
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: 'Key “Billing service” created' });
  await expect(shown).toBeVisible();
  const key = await shown.getByTestId('secret-value').inputValue();
  expect(key).toMatch(/^sk_live_/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  await snap(page, testInfo, 'keys-created');
  // The MCP configuration to paste into an assistant carries the key and this server's /mcp.
  await shown.getByText('Use this key from an AI assistant (MCP)').click();
  const snippet = shown.getByRole('tabpanel', { name: 'MCP configuration: HTTP' });
  await expect(snippet).toContainText(`"Authorization": "Bearer ${key}"`);
  await expect(snippet).toContainText(`${new URL(page.url()).origin}/mcp`);
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: 'Billing service' });
  await expect(row.getByRole('meter')).toHaveAttribute('aria-valuenow', '0');
  await expect(row).toContainText('/ 1,000');
  await expect(row.getByLabel('Auto-store for Billing service')).toBeChecked();

  const render = (bearer: string) =>
    fetch(`${quire.url}/v1/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: '<h1>counted</h1>', options: { wait_until: 'load' }, store: false }),
    });
  for (let i = 0; i < 2; i++) expect((await render(key)).status).toBe(200);
  // The page refreshes usage on its own (events, else every few seconds).
  await expect(row.getByRole('meter')).toHaveAttribute('aria-valuenow', '2', { timeout: 12_000 });
  await expect(row).toContainText('2 / 1,000');
  await snap(page, testInfo, 'keys');

  await row.getByLabel('Plan of Billing service').selectOption('growth');
  await expect(row).toContainText('2 / 10,000');
  expect((await render(key)).headers.get('x-service-plan')).toBe('growth');

  await row.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog', { name: 'Rotate this key?' }).getByRole('button', { name: 'Rotate key' }).click();
  const rotated = page.getByRole('dialog', { name: 'New key for “Billing service”' });
  const newKey = await rotated.getByTestId('secret-value').inputValue();
  expect(newKey).not.toBe(key);
  await rotated.getByRole('button', { name: 'Done' }).click();
  expect((await render(key)).status).toBe(401);
  expect((await render(newKey)).status).toBe(200);

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
  await expect(confirm).toContainText('stops working at once');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Billing service' })).toHaveCount(0);
  expect((await render(newKey)).status).toBe(401);
});

test('an API error is shown as its detail sentence', async ({ admin: page }) => {
  await page.goto('/admin/keys');
  await page.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  // 101 characters: over the server's limit for a name (the field's own maxLength is lifted first).
  await dialog.getByLabel('Name').evaluate((input) => input.removeAttribute('maxlength'));
  await dialog.getByLabel('Name').fill('x'.repeat(101));
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('alert')).toContainText('name');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the keys screen pages: 50 newest keys, then the older ones', async ({ admin: page, quire }) => {
  const made: string[] = [];
  for (let n = 0; n < 51; n++) made.push((await quire.createKey('free', { name: `Paged key ${String(n).padStart(2, '0')}` })).id);
  try {
    await page.goto('/admin/keys');
    const table = page.getByRole('table', { name: 'API keys' });
    await expect(table.getByRole('row').filter({ hasText: 'Paged key 50' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Paged key 00' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Older →' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'Paged key 00' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Paged key 50' })).toHaveCount(0);
    await page.getByRole('button', { name: '← Newer' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'Paged key 50' })).toBeVisible();
  } finally {
    for (const id of made) await quire.admin('DELETE', `/admin/v1/keys/${id}`);
  }
});
