// Helpers of the accessibility specs: axe run on the page (or one part of it) failing on serious
// or critical findings with a readable list; the realistic content the screens are audited with;
// a dialog's audit (opened, checked, closed with Escape, the focus back on its opener).

import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import type { TestServer } from '../helpers/start-app.ts';

/** Runs axe on the page (or inside `include`) and fails on any serious or critical violation, listing each with its nodes. */
export async function expectNoSeriousViolations(page: Page, where: string, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(' ')} ${node.failureSummary ?? ''}`).join('\n')}`,
    );
  // Soft: one run lists the findings of every screen, not only the first one's.
  expect.soft(serious, `axe on ${where}`).toEqual([]);
}

/** A key, a template with two versions, a stored document and a batch: what the screens list. */
export async function seedContent(quire: TestServer): Promise<{ templateId: string; keyId: string }> {
  const key = await quire.createKey('business', { name: 'Accounts team' });
  const auth = { authorization: `Bearer ${key.key}` };
  const created = await quire.request('POST', '/v1/templates', { name: 'Invoice letter', html: '<h1>Invoice {{n}}</h1>', sample_data: { n: 1 } }, auth);
  const templateId = ((await created.json()) as { template_id: string }).template_id;
  await quire.request('PUT', `/v1/templates/${templateId}`, { name: 'Invoice letter', html: '<h1>Invoice no. {{n}}</h1>', sample_data: { n: 2 } }, auth);
  const rendered = await quire.render({ html: '<h1>Statement</h1>', store: true, filename: 'statement.pdf', options: { wait_until: 'load' } }, auth);
  expect(rendered.status).toBe(200);
  const batch = await quire.request(
    'POST',
    '/v1/pdf/batch',
    { requests: [{ html: '<p>Letter</p>', filename: 'letter.pdf', options: { wait_until: 'load' } }] },
    auth,
  );
  expect(batch.status).toBeLessThan(300);
  return { templateId, keyId: key.id };
}

/**
 * Opens a dialog with `opener`, audits it with axe, closes it with Escape and checks that the focus
 * is back on the opener: every dialog of the admin window goes through this.
 */
export async function auditDialog(page: Page, opener: Locator, name: string | RegExp): Promise<void> {
  await opener.click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expectNoSeriousViolations(page, `the dialog ${name}`, 'dialog[open]');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener, `the focus returns to what opened ${name}`).toBeFocused();
}
