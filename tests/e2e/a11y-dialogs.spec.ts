// The admin window's dialogs (issue 42 item 5): each is opened from its screen, audited with axe
// (no serious or critical finding), closed with Escape, and gives the focus back to its opener;
// Tab and Shift+Tab wrap inside an open dialog instead of leaving it.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { auditDialog, expectNoSeriousViolations, seedContent } from './a11y-helpers.ts';
import { makeTestPki } from '../helpers/test-pki.ts';

/** A short description of the focused element and whether it is inside the open dialog. */
function focused(page: Page): Promise<{ inside: boolean; what: string }> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    const dialog = document.querySelector('dialog[open]');
    return {
      inside: Boolean(active && dialog?.contains(active)),
      what: `${active?.tagName} ${active?.getAttribute('aria-label') ?? active?.textContent?.trim().slice(0, 30)}`,
    };
  });
}

test('Tab and Shift+Tab stay inside an open dialog and wrap around', async ({ admin: page }) => {
  await page.goto('/admin/keys');
  await page.getByRole('button', { name: 'New key' }).click();
  await expect(page.getByRole('dialog', { name: 'New API key' })).toBeVisible();
  await page.getByRole('textbox', { name: /name/i }).first().fill('Wrapping');
  for (const key of ['Tab', 'Shift+Tab']) {
    const start = await focused(page);
    const seen: string[] = [];
    // More presses than the dialog has controls: the focus must come round to where it started.
    for (let press = 0; press < 20; press++) {
      await page.keyboard.press(key);
      const now = await focused(page);
      expect(now.inside, `${key} #${press + 1} left the dialog for ${now.what} (after ${seen.join(' → ')})`).toBe(true);
      seen.push(now.what);
      if (now.what === start.what) break;
    }
    expect(seen.at(-1), `${key} wraps round to ${start.what}`).toBe(start.what);
    expect(seen.length, `${key} visits more than one control`).toBeGreaterThan(1);
  }
});

test('the dialogs of keys, templates and the studio pass axe, close on Escape and return the focus', async ({ admin: page, quire }) => {
  test.setTimeout(180_000);
  const { templateId } = await seedContent(quire);
  await page.goto('/admin/keys');
  await auditDialog(page, page.getByRole('button', { name: 'New key' }), 'New API key');
  await auditDialog(page, page.getByRole('button', { name: 'Rotate' }).first(), 'Rotate this key?');
  await auditDialog(page, page.getByRole('button', { name: 'Revoke' }).first(), 'Revoke this key?');
  // The secret of a new key is shown once, in a dialog of its own.
  await page.getByRole('button', { name: 'New key' }).click();
  await page.getByRole('dialog', { name: 'New API key' }).getByRole('textbox').first().fill('Shown once');
  await page
    .getByRole('dialog', { name: 'New API key' })
    .getByRole('button', { name: /^Create/ })
    .click();
  const secret = page.getByRole('dialog', { name: 'Key “Shown once” created' });
  await expect(secret).toBeVisible();
  await expectNoSeriousViolations(page, 'the new key’s secret', 'dialog[open]');
  await page.keyboard.press('Escape');
  await expect(secret).toBeHidden();

  await page.goto('/admin/templates');
  await auditDialog(page, page.getByRole('button', { name: 'Import archive' }), /^Import/);
  await auditDialog(page, page.getByRole('button', { name: 'New template' }), 'New template');

  await page.goto(`/admin/templates/${templateId}`);
  await expect(page.getByText(/^Rendered in/)).toBeVisible();
  await auditDialog(page, page.getByRole('button', { name: 'View v1' }), 'Version 1');
  await auditDialog(page, page.getByRole('button', { name: 'Diff v1' }), 'Version 1 → current');
  await auditDialog(page, page.getByRole('button', { name: 'Check v1' }), 'Visual check of version 1');
  await auditDialog(page, page.getByRole('button', { name: 'Restore v1' }), 'Restore v1?');
  await auditDialog(page, page.getByRole('button', { name: 'Delete', exact: true }), /^Delete/);
});

test('the dialogs of documents and certificates pass axe, close on Escape and return the focus', async ({ admin: page, quire }) => {
  test.setTimeout(180_000);
  await seedContent(quire);
  await page.goto('/admin/documents');
  // The worker's server is shared by the specs before: the newest row is this test's document.
  const row = page.locator('tr').filter({ hasText: 'statement.pdf' }).first();
  await auditDialog(page, row.getByRole('button', { name: 'Delete' }), 'Delete this document?');
  await auditDialog(page, row.getByRole('button', { name: 'Open' }), 'statement.pdf');
  await auditDialog(page, row.getByRole('button', { name: 'Inspect' }), 'Inside statement.pdf');
  await auditDialog(page, row.getByRole('button', { name: 'Tools' }), 'Tools for statement.pdf');

  const pki = await makeTestPki();
  const imported = await quire.admin('POST', '/admin/v1/certificates', {
    name: 'Operator seal',
    key_pem: pki.signer.key,
    certificate_pem: pki.signer.cert + pki.caPem,
  });
  expect(imported.status).toBe(201);
  await page.goto('/admin/certificates');
  await auditDialog(page, page.getByRole('button', { name: /^Import/ }).first(), /^Import/);
  // Other specs' certificates may be listed too (the server is shared): this test's row only.
  const seal = page.getByRole('row').filter({ hasText: 'Operator seal' });
  await auditDialog(page, seal.getByRole('button', { name: 'Grants' }), /^Keys that may sign/);
  await auditDialog(page, seal.getByRole('button', { name: 'Delete' }), /^Delete/);
  const { id } = (await imported.json()) as { id: string };
  expect((await quire.admin('DELETE', `/admin/v1/certificates/${id}`)).status).toBe(204);
});
