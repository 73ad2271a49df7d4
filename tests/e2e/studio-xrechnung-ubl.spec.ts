// Issue 41, item 5: the studio offers XRechnung in UBL as well as CII. With "Write the invoice from
// the template's data", profile XRECHNUNG and syntax UBL, the preview carries xrechnung.xml as a UBL
// Invoice made from the starter's data, and passes the XRechnung rules (the header says so).

import { test, expect } from './fixtures.ts';
import { detach } from '../helpers/attached-files.ts';

test.describe.configure({ timeout: 180_000 });

test('the studio writes an XRechnung in UBL from the template’s data', async ({ admin: page, quire }) => {
  await quire.createKey('business', { name: 'Invoicing' });
  await page.goto('/admin/templates');
  await page.getByRole('button', { name: 'New template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New template' });
  await dialog.getByLabel('Name').fill('Rechnung');
  await dialog.getByRole('button', { name: 'Create and edit' }).click();
  await expect(page.getByTestId('preview-status')).toContainText('Rendered in');

  const pane = page.getByTestId('running-pane');
  await pane.getByText('Header and footer, PDF/A, signature, attachments, e-invoice').click();
  await pane.getByText('Write the invoice from the template’s data').click();
  await pane.getByLabel('Profile').selectOption('XRECHNUNG');
  const preview = page.waitForResponse(
    (response) => response.url().endsWith('/admin/v1/templates/preview') && (response.request().postData() ?? '').includes('"syntax":"UBL"'),
  );
  await pane.getByLabel('Syntax').selectOption('UBL');
  const answer = await preview;
  expect(answer.status(), await answer.text().catch(() => '')).toBe(200);
  expect(answer.headers()['x-e-invoice-report']).toMatch(/^rules=xrechnung; fatal=0/);
  const [xml] = detach(new Uint8Array(await answer.body())).filter((file) => file.name === 'xrechnung.xml');
  expect(xml, 'xrechnung.xml is attached').toBeTruthy();
  const text = xml!.bytes.toString('utf8');
  expect(text).toMatch(/<(\w+:)?Invoice[\s>][\s\S]*urn:oasis:names:specification:ubl:schema:xsd:Invoice-2/);
  expect(text).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
});
