// The template studio asks before unsaved edits are lost to a move inside the app (issue 39, item
// 9): the sidebar, "← Templates" and Back ask; "Stay" keeps the edits; a saved template leaves freely.

import { test, expect } from './fixtures.ts';

test('the studio asks before a sidebar link, "← Templates" or Back drops unsaved edits', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter');
  const created = await quire.admin('POST', '/admin/v1/templates', { key_id: key.id, name: 'Leaving', html: '<h1>Kept</h1>\n', sample_data: {} });
  const id = ((await created.json()) as { template_id: string }).template_id;
  await page.goto('/admin/templates');
  await page.getByRole('row').filter({ hasText: 'Leaving' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/templates/${id}$`));
  const html = page.getByRole('textbox', { name: 'HTML', exact: true });
  await expect(html).toContainText('<h1>Kept</h1>');
  await html.press('ControlOrMeta+End');
  await html.pressSequentially('<p>Unsaved</p>');

  const asked: string[] = [];
  const answer = (accept: boolean) =>
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });

  answer(false);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toMatch(/unsaved changes/);
  await expect(page).toHaveURL(new RegExp(`/admin/templates/${id}$`));
  await expect(html).toContainText('<p>Unsaved</p>');

  answer(false);
  await page.goBack();
  await expect.poll(() => asked.length).toBe(2);
  await expect(page).toHaveURL(new RegExp(`/admin/templates/${id}$`));
  await expect(html).toContainText('<p>Unsaved</p>');

  answer(true);
  await page.getByRole('link', { name: '← Templates' }).click();
  await expect.poll(() => asked.length).toBe(3);
  await expect(page).toHaveURL(/\/admin\/templates$/);
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();

  // Saved: no question.
  await page.getByRole('row').filter({ hasText: 'Leaving' }).click();
  await expect(html).toContainText('<h1>Kept</h1>');
  await page.getByRole('link', { name: '← Templates' }).click();
  await expect(page).toHaveURL(/\/admin\/templates$/);
  expect(asked).toHaveLength(3);
});
