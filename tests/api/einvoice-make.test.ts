// POST /v1/einvoice: the example JSON invoice (docs/examples/) made into every format answers the
// XML alone (its root and BT-24 as the format wants) with the rule report in X-E-Invoice-Report;
// an invoice our JSON takes but the rules refuse is 400 einvoice_invalid listing the rules; a JSON
// of the wrong shape, a field the format cannot carry or a huge body are refused. Nothing is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { errorOf, startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '..', '..', 'docs', 'examples');
const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(EXAMPLES, `${name}.json`), 'utf8'));
const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const CEN = 'urn:cen.eu:en16931:2017';

/** Each format: the root element ({namespace}name) and BT-24 its XML must have. */
const EXPECTED: Record<string, [string, string]> = {
  'en16931-cii': [`{${CII}}CrossIndustryInvoice`, CEN],
  'en16931-ubl': [`{${UBL}Invoice-2}Invoice`, CEN],
  'xrechnung-cii': [`{${CII}}CrossIndustryInvoice`, `${CEN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`],
  'xrechnung-ubl': [`{${UBL}Invoice-2}Invoice`, `${CEN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`],
  'peppol-ubl': [`{${UBL}Invoice-2}Invoice`, `${CEN}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`],
  'facturx-en16931': [`{${CII}}CrossIndustryInvoice`, CEN],
  'facturx-extended': [`{${CII}}CrossIndustryInvoice`, `${CEN}#conformant#urn:factur-x.eu:1p0:extended`],
};

function make(server: TestServer, format: string, invoice: unknown): Promise<Response> {
  return server.request('POST', '/v1/einvoice', { format, invoice });
}

/** The XML's root as {namespace}name and its BT-24 (UBL CustomizationID, CII guideline id). */
function facts(xml: string): { root: string; specification: string | undefined; process: string | undefined } {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  const root = document.documentElement!;
  const first = (ns: string, name: string) => document.getElementsByTagNameNS(ns, name)[0];
  const ubl = root.namespaceURI !== CII;
  const specification = ubl
    ? first(CBC, 'CustomizationID')?.textContent
    : first(RAM, 'GuidelineSpecifiedDocumentContextParameter')?.getElementsByTagNameNS(RAM, 'ID')[0]?.textContent;
  const process = ubl
    ? first(CBC, 'ProfileID')?.textContent
    : first(RAM, 'BusinessProcessSpecifiedDocumentContextParameter')?.getElementsByTagNameNS(RAM, 'ID')[0]?.textContent;
  return { root: `{${root.namespaceURI}}${root.localName}`, specification: specification ?? undefined, process: process ?? undefined };
}

test('every format answers the XML alone, with its root, BT-24 and BT-23, and the report header; not charged', async (t) => {
  const server = await startTestServer(t);
  const before = await usageOf(server);
  for (const [format, [root, specification]] of Object.entries(EXPECTED)) {
    const response = await make(server, format, example('einvoice-two-rates-allowances'));
    assert.equal(response.status, 200, `${format}: ${await response.clone().text()}`);
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const report = response.headers.get('x-e-invoice-report') ?? '';
    assert.match(report, /^rules=(en16931|xrechnung|peppol); fatal=0; warnings=\d+/, format);
    const xml = await response.text();
    const read = facts(xml);
    assert.deepEqual([read.root, read.specification], [root, specification], format);
    // XRechnung and Peppol name the Peppol billing process (PEPPOL-EN16931-R001: Quire's XRechnung once lacked it).
    if (/^(xrechnung|peppol)/.test(format)) assert.equal(read.process, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', format);
  }
  const credit = await make(server, 'xrechnung-ubl', example('einvoice-reverse-charge-credit-note'));
  assert.equal(credit.status, 200);
  assert.equal(facts(await credit.text()).root, `{${UBL}CreditNote-2}CreditNote`);
  assert.equal(await usageOf(server), before, 'making an e-invoice is not charged');
});

test('an invoice the JSON takes but the rules refuse is 400 einvoice_invalid listing each rule with its place', async (t) => {
  const server = await startTestServer(t);
  const invoice = example('einvoice-simple');
  delete invoice.buyer_reference;
  const response = await make(server, 'xrechnung-ubl', invoice);
  const body = (await response.json()) as { code: string; detail: string; rule_set: string; rules: { id: string; detail: string; location: string }[] };
  assert.deepEqual([response.status, body.code, body.rule_set], [400, 'einvoice_invalid', 'xrechnung'], body.detail);
  const de15 = body.rules.find((finding) => finding.id === 'BR-DE-15');
  assert.ok(de15, JSON.stringify(body.rules));
  assert.match(de15.detail, /BT-10/);
  assert.match(de15.location, /^\/ubl:Invoice/);
  assert.match(response.headers.get('x-e-invoice-report') ?? '', /^rules=xrechnung; fatal=[1-9]\d*; warnings=\d+; ids=.*BR-DE-15/);
  // The same invoice is fine as plain EN 16931, which asks for no buyer reference.
  assert.equal((await make(server, 'en16931-cii', invoice)).status, 200);
  // An exempt line without its exemption reason: the VAT category rule (BR-E-10).
  const exempt = example('einvoice-simple');
  (exempt.lines as Record<string, unknown>[])[1] = { name: 'Training', quantity: 1, unit_price: 300, vat_category: 'E', vat_rate: 0 };
  const vat = (await (await make(server, 'en16931-cii', exempt)).json()) as { code: string; rules: { id: string }[] };
  assert.equal(vat.code, 'einvoice_invalid');
  assert.ok(
    vat.rules.some((finding) => finding.id === 'BR-E-10'),
    JSON.stringify(vat.rules),
  );
});

test('shape errors, uncarried fields, what the issue measured, and contradicted totals are 400 invalid_request naming the field', async (t) => {
  const server = await startTestServer(t);
  const refused = async (format: string, invoice: unknown, field: RegExp) => {
    const error = await errorOf(await make(server, format, invoice));
    assert.deepEqual([error.status, error.code], [400, 'invalid_request'], error.detail);
    assert.match(error.detail, field);
  };
  const simple = example('einvoice-simple');
  await refused('en16931-cii', { ...simple, issue_date: '2 March 2026' }, /invoice\.issue_date/);
  await refused('en16931-cii', { ...simple, lines: [{ name: 'x', quantity: 1, unit_price: 'ten', vat_rate: 19 }] }, /invoice\.lines\[0\]\.unit_price/);
  await refused('en16931-cii', { ...simple, colour: 'red' }, /colour/);
  await refused('ubl-2.1', simple, /format/);
  // CII-SR-470 / BR-61: a SEPA credit transfer (58, the default) without an account.
  await refused('en16931-cii', { ...simple, payment: { due_date: '2026-04-01' } }, /invoice\.payment\.iban/);
  // BR-CO-26: a seller with only a tax number.
  const seller = { ...(simple.seller as Record<string, unknown>), vat_id: undefined };
  await refused('en16931-cii', { ...simple, seller }, /invoice\.seller needs identifiers \(BT-29\), legal_id \(BT-30\) or vat_id/);
  await refused('peppol-ubl', { ...simple, notes: [{ text: 'Hi', subject_code: 'AAI' }] }, /invoice\.notes\[0\]\.subject_code cannot be carried by peppol-ubl/);
  await refused('facturx-basic', simple, /invoice\.seller\.contact cannot be carried by facturx-basic/);
  await refused('facturx-minimum', simple, /facturx-minimum carries no invoice lines/);
  await refused(
    'en16931-cii',
    { ...simple, totals: { grand_total: '1.00' } },
    /invoice\.totals\.grand_total is 1\.00, but tax_basis_total \+ tax_total is 1736\.21 \(BR-CO-15\)/,
  );
  const line = { name: 'Consulting', quantity: 3, unit_price: '33.33', line_total: '100.00', vat_rate: 19 };
  await refused('en16931-cii', { ...simple, lines: [line] }, /invoice\.lines\[0\]\.line_total is 100\.00, but .* is 99\.99/);
});

test('a body over the 6 MB request limit is 413 before anything is made', async (t) => {
  const server = await startTestServer(t);
  const invoice = { ...example('einvoice-simple'), note: 'x'.repeat(7 * 1024 * 1024) };
  const error = await errorOf(await make(server, 'en16931-cii', invoice));
  assert.deepEqual([error.status, error.code], [413, 'payload_too_large'], error.detail);
});
