// Markdown in the admin window: the playground's Markdown source with its CSS field, and a
// template switched to Markdown in the studio (Markdown highlighting, a live preview, saved with
// its format).

import { test, expect } from './fixtures.ts';

test('the playground renders Markdown, with CSS that extends the default stylesheet', async ({ page }) => {
  await page.goto('/playground');
  await page.locator('.segmented').getByText('Markdown', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Markdown/ }).fill('# Release notes\n\n| Item | State |\n|---|---|\n| Markdown | done |\n\n- [x] shipped');
  await page.getByRole('textbox', { name: /^CSS/ }).fill('h1 { color: rgb(200, 0, 0); }');
  await page.getByRole('button', { name: 'Render PDF' }).click();
  await expect(page.getByTestId('pdf-text')).toContainText('Release notes');
  await expect(page.getByTestId('pdf-text')).toContainText('Markdown done');
  const code = page.locator('pre.code').first();
  await expect(code).toContainText('"markdown":"# Release notes');
  await expect(code).toContainText('"css":"h1 { color: rgb(200, 0, 0); }"');
});

test('a template switched to Markdown is edited with Markdown highlighting, previewed and saved with its format', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter');
  const created = await quire.admin('POST', '/admin/v1/templates', { key_id: key.id, name: 'Notes', html: '<p>old</p>', sample_data: { who: 'Ada' } });
  const { template_id: id } = (await created.json()) as { template_id: string };
  await page.goto(`/admin/templates/${id}`);
  await page.getByLabel('Template format').selectOption('markdown');
  const editor = page.getByRole('textbox', { name: 'Markdown', exact: true });
  await expect(page.locator('.code-editor[data-language="markdown"]')).toBeVisible();
  await editor.fill('# Hello {{who}}\n\n- [x] **done**');
  // The Markdown grammar marks the heading line (CodeMirror's heading token).
  await expect(page.locator('.code-editor[data-language="markdown"] .cm-line').first()).toHaveText('# Hello {{who}}');
  await expect(page.locator('.code-editor[data-language="markdown"] .cm-template-value').first()).toHaveText('{{who}}');
  await expect(page.getByTestId('pdf-text')).toContainText('Hello Ada');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  const saved = (await (await quire.admin('GET', `/admin/v1/templates/${id}`)).json()) as { format: string; html: string };
  expect([saved.format, saved.html]).toEqual(['markdown', '# Hello {{who}}\n\n- [x] **done**']);
});
