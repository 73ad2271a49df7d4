// The studio's accessibility warnings in a real browser (issue 42 item 4): the browser's DOMParser
// reads the template as it is typed, and an image without alt text gets a warning mark whose
// message says what to add. The rules themselves: tests/unit/ui/template-a11y-lint.test.ts.

import { test, expect } from './fixtures.ts';

test('an image typed without alt text is marked with a warning that says to add alt', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter');
  const html = '<html lang="en"><head><title>Letter</title></head><body>\n<h1>Dear {{name}}</h1>\n</body></html>\n';
  const created = await quire.admin('POST', '/admin/v1/templates', { key_id: key.id, name: 'A11y', html, sample_data: { name: 'Ada' } });
  expect(created.status).toBe(201);
  const { template_id: id } = (await created.json()) as { template_id: string };
  await page.goto(`/admin/templates/${id}`);
  const editor = page.getByRole('textbox', { name: 'HTML', exact: true });
  await expect(editor).toContainText('Dear {{name}}');

  // A complete page with an h1 has nothing to warn about; the lint has run once the editor shows.
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially('<img src="logo.png">');
  const mark = page.locator('.cm-lintRange-warning').filter({ hasText: '<img src="logo.png">' });
  await expect(mark).toBeVisible();
  await mark.hover();
  await expect(page.locator('.cm-tooltip-lint .cm-diagnostic-warning')).toContainText('This image has no alt text');

  // alt="" marks the image as decoration: the warning goes.
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially('\n<img alt="" src="rule.png">');
  await expect(page.locator('.cm-lintRange-warning')).toHaveCount(1);
});
