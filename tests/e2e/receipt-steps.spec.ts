// Receipts show the steps after the PDF was made (issue 39, item 11): a signed PDF/A e-invoice's
// receipt lists attachments, PDF/A and the signature with their times and sizes, a "Steps" time
// before Total, and the embedded e-invoice; a transform's receipt lists its own steps.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from './fixtures.ts';
import { makeTestPki } from '../helpers/test-pki.ts';

const MINIMUM_XML = await readFile(path.join(import.meta.dirname, '..', 'fixtures', 'factur-x-minimum.xml'), 'utf8');

test('a signed PDF/A e-invoice receipt and a transform receipt show each step, its time and size', async ({ admin: page, quire }) => {
  const pki = await makeTestPki();
  try {
    const key = await quire.createKey('starter', { name: 'steps key' });
    await quire.admin('PATCH', `/admin/v1/keys/${key.id}`, { receipts: 'all' });
    const imported = await quire.admin('POST', '/admin/v1/certificates', {
      key_pem: pki.signer.key,
      certificate_pem: pki.signer.cert + pki.caPem,
      owner_key_id: key.id,
    });
    expect(imported.status).toBe(201);
    const certificate = (await imported.json()) as { id: string };
    const signed = await quire.render(
      {
        html: '<h1>Invoice FA-2026-017</h1>',
        options: { wait_until: 'load', pdf_a: 'PDF/A-3b', e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML }, sign: { certificate_id: certificate.id } },
      },
      { authorization: `Bearer ${key.key}` },
    );
    expect(signed.status).toBe(200);
    const signedReceipt = signed.headers.get('x-render-receipt')!.split('/').at(-1)!;
    const plain = await quire.render({ html: '<p>Turn me</p>', options: { wait_until: 'load' } }, { authorization: `Bearer ${key.key}` });
    const pdf = new Uint8Array(await plain.arrayBuffer());
    const transformed = await fetch(`${quire.url}/v1/pdf/transform`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pdf: Buffer.from(pdf).toString('base64'), steps: [{ op: 'rotate', angle: 90 }, { op: 'compress' }] }),
    });
    expect(transformed.status, await transformed.clone().text()).toBe(200);
    const transformReceipt = transformed.headers.get('x-render-receipt')!.split('/').at(-1)!;

    await page.goto('/admin/activity');
    const panel = page.getByRole('dialog', { name: 'Receipt' });
    await page.locator(`tr[data-receipt-id="${signedReceipt}"]`).getByRole('button', { name: 'Receipt' }).click();
    const steps = panel.getByRole('table', { name: 'Steps of the output' });
    await expect(steps.locator('tbody tr')).toHaveText([/^Attachments\d+ ms.+→/, /^PDF\/A\d+ ms.+→/, /^Signature\d+ ms.+→/]);
    await expect(panel.locator('.receipt-facts dt').filter({ hasText: /^Steps$/ })).toBeVisible();
    await expect(panel.getByTestId('receipt-e-invoice')).toContainText('Factur-X MINIMUM e-invoice');
    await expect(panel.getByRole('region', { name: 'Conformance' })).toContainText('PDF/A-3b');
    await panel.getByRole('button', { name: 'Close' }).click();

    await page.locator(`tr[data-receipt-id="${transformReceipt}"]`).getByRole('button', { name: 'Receipt' }).click();
    await expect(panel.getByRole('table', { name: 'Steps of the output' }).locator('tbody tr')).toHaveText([/^Rotate\d+ ms/, /^Compress\d+ ms/]);
  } finally {
    await pki.close();
  }
});
