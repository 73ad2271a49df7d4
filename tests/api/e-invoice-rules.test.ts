// Our EN 16931 and XRechnung rules on every e-invoice a render makes (issue 41, item 3), against a
// real Chromium: an invoice that fails a fatal rule is 400 einvoice_invalid listing each rule with
// its location, uncharged and not stored; a valid one renders with its XML attached and says which
// rules it met in X-E-Invoice-Report and in the receipt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, usageOf, type TestServer } from '../helpers/start-app.ts';
import { detach } from '../helpers/attached-files.ts';
import { inspectPdf } from '../helpers/pdf.ts';

const root = path.join(import.meta.dirname, '..', '..');
const INVOICE = JSON.parse(readFileSync(path.join(root, 'docs', 'examples', 'invoice.json'), 'utf8')) as Record<string, unknown> & {
  seller: Record<string, unknown>;
};
const MINIMUM_XML = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'factur-x-minimum.xml'), 'utf8');
/** An official CEN example changed to compute 16 % VAT under a 19 % rate (the shared corpus, never copied in). */
const VAT_AT_16 = readFileSync(path.join(root, '..', 'shared', 'einvoice-corpus', 'broken', 'cii-br-s-09-vat-computed-at-16-percent.xml'), 'utf8');

interface RulesError {
  status: number;
  code: string;
  detail: string;
  rules: { id: string; detail: string; location: string }[];
}

async function storedCount(server: TestServer): Promise<number> {
  return ((await (await server.request('GET', '/v1/documents')).json()) as { data: unknown[] }).data.length;
}

/** The render is refused before anything is charged or stored; the body as sent. */
async function refused(server: TestServer, body: object): Promise<RulesError> {
  const [usage, stored] = [await usageOf(server), await storedCount(server)];
  const response = await server.render({ ...body, store: true });
  const error = { status: response.status, ...((await response.json()) as Omit<RulesError, 'status'>) };
  assert.equal(await usageOf(server), usage, 'a refused e-invoice is not charged');
  assert.equal(await storedCount(server), stored, 'nor stored');
  return error;
}

test('e-invoice rules on the render path', async (t) => {
  const server = await startTestServer(t);

  await t.test('a JSON invoice whose seller has only a tax number is refused naming the field (BR-CO-26), before any XML is written', async () => {
    const { vat_id: _vat, legal_id: _legal, ...seller } = INVOICE.seller;
    const invoice = { ...INVOICE, seller: { ...seller, tax_number: '12/345/67890' } };
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'EN 16931', invoice } } });
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.e_invoice\.invoice\.seller needs identifiers \(BT-29\).*BR-CO-26/);
  });

  await t.test('a JSON invoice with an exempt line and no exemption reason fails BR-E-10: 400 einvoice_invalid with the rule and its element', async () => {
    const { vat_breakdown: _breakdown, totals: _totals, ...rest } = INVOICE as Record<string, unknown>;
    const lines = [...(INVOICE.lines as Record<string, unknown>[]), { name: 'Training', quantity: 1, unit_price: 300, vat_category: 'E', vat_rate: 0 }];
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'EN 16931', invoice: { ...rest, lines } } } });
    assert.equal(error.status, 400);
    assert.equal(error.code, 'einvoice_invalid', error.detail);
    assert.match(error.detail, /^Options\.e_invoice\.invoice fails the rules? .*BR-E-10.* of EN 16931\. Nothing was charged/);
    const finding = error.rules.find((rule) => rule.id === 'BR-E-10');
    assert.ok(finding, JSON.stringify(error.rules));
    assert.match(finding.location, /^\/rsm:CrossIndustryInvoice\//);
    assert.ok(finding.detail.length > 20, 'our sentence says what the invoice must do');
  });

  await t.test('an XML given whose VAT does not add up meets its XSD but fails BR-CO-17 and BR-S-09', async () => {
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'EN 16931', xml: VAT_AT_16 } } });
    assert.equal(error.status, 400);
    assert.equal(error.code, 'einvoice_invalid');
    assert.deepEqual([...new Set(error.rules.map((rule) => rule.id))].sort(), ['BR-CO-17', 'BR-S-09']);
    assert.ok(
      error.rules.every((rule) => rule.location.startsWith('/rsm:CrossIndustryInvoice/')),
      JSON.stringify(error.rules),
    );
  });

  await t.test('a valid EN 16931 invoice renders with factur-x.xml, X-E-Invoice-Report and the report in its receipt', async () => {
    const response = await server.render({
      html: '<h1>Invoice RE-2026-0042</h1>',
      options: { e_invoice: { profile: 'EN 16931', invoice: INVOICE } },
      store: true,
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf.subarray(0, 400)).toString());
    assert.equal(response.headers.get('x-e-invoice-report'), 'rules=en16931; fatal=0; warnings=0');
    assert.equal((await inspectPdf(pdf)).pages.length, 1);
    assert.equal(detach(pdf)[0]?.name, 'factur-x.xml');
    const receipt = (await (await server.request('GET', response.headers.get('x-render-receipt')!)).json()) as {
      steps: { step: string; report: { e_invoice?: { rules: unknown } } | null }[];
    };
    const attachments = receipt.steps.find((step) => step.step === 'attachments');
    assert.deepEqual(attachments?.report?.e_invoice?.rules, { rules: 'en16931', fatal: [], warnings: [] });
  });

  await t.test('an XRechnung from JSON meets the XRechnung rules: its business process (BT-23) is written', async () => {
    const response = await server.render({ html: '<p>x</p>', options: { e_invoice: { profile: 'XRECHNUNG', invoice: INVOICE } } });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf.subarray(0, 400)).toString());
    assert.equal(response.headers.get('x-e-invoice-report'), 'rules=xrechnung; fatal=0; warnings=0');
    assert.match(
      detach(pdf)[0]!.bytes.toString('utf8'),
      /BusinessProcessSpecifiedDocumentContextParameter>\s*<ram:ID>urn:fdc:peppol\.eu:2017:poacc:billing:01:1\.0</,
    );
  });

  await t.test('MINIMUM is not an EN 16931 invoice: its XSD is checked, no rule set', async () => {
    const response = await server.render({ html: '<p>x</p>', options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML } } });
    await response.arrayBuffer();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-e-invoice-report'), 'rules=none; fatal=0; warnings=0');
  });
});
