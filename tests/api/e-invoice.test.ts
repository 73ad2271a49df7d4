// options.e_invoice against a real Chromium: the CII XML embedded under the name and relationship
// Factur-X asks, read back with pdfdetach and checked against the official XSD with xmllint
// independently; the fx: XMP properties read with exiftool; and the refusals, all before any
// charge: XML that fails its schema (every error with its line), the wrong profile, totals that
// do not add up. One JSON invoice as a template's data makes both the readable PDF and the XML.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, errorOf, usageOf, type TestServer } from '../helpers/start-app.ts';
import { associatedFiles, detach, xmpPacket, xmpProperties } from '../helpers/attached-files.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { schemaPath } from '../../server/src/einvoice/xsd-check.ts';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const INVOICE = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'examples', 'invoice.json'), 'utf8')) as Record<string, unknown>;
const MINIMUM_XML = fixture('factur-x-minimum.xml');
const TEMPLATE = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'examples', 'invoice-template.html'), 'utf8');

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 600)).toString()}`);
  return bytes;
}

/** xmllint run here, on the extracted bytes: exit 0 means the XML meets the profile's XSD. */
function validatesAgainst(xml: Buffer, xsd: string): boolean {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-xsd-'));
  try {
    writeFileSync(path.join(dir, 'invoice.xml'), xml);
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', xsd, path.join(dir, 'invoice.xml')], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function refused(server: TestServer, body: unknown): Promise<{ status: number; code: string; detail: string }> {
  const before = await usageOf(server);
  const error = await errorOf(await server.render(body));
  assert.equal(await usageOf(server), before, 'a refused e-invoice is not charged');
  return error;
}

test('e-invoices', async (t) => {
  const server = await startTestServer(t);

  await t.test('a JSON invoice becomes factur-x.xml (Alternative) that meets the EN 16931 XSD, with the Factur-X XMP', async () => {
    const response = await server.render({ html: '<h1>Invoice RE-2026-0042</h1>', options: { e_invoice: { profile: 'EN 16931', invoice: INVOICE } } });
    const pdf = await pdfOf(response);
    assert.equal(response.headers.get('x-e-invoice'), 'EN 16931');
    const [file, ...others] = detach(pdf);
    assert.equal(others.length, 0);
    assert.equal(file?.name, 'factur-x.xml');
    assert.ok(validatesAgainst(file.bytes, schemaPath('EN 16931')), 'the embedded XML meets the EN 16931 XSD');
    const xml = file.bytes.toString('utf8');
    assert.match(xml, /<ram:GrandTotalAmount>1374\.04<\/ram:GrandTotalAmount>/);
    assert.match(xml, /<ram:ID>urn:cen\.eu:en16931:2017<\/ram:ID>/);
    const [associated] = associatedFiles(pdf);
    assert.equal(associated?.spec['/AFRelationship'], '/Alternative');
    assert.equal(associated?.stream['/Subtype'], '/text/xml');
    const xmp = xmpProperties(pdf);
    assert.equal(xmp['XMP-fx:DocumentType'], 'INVOICE');
    assert.equal(xmp['XMP-fx:DocumentFileName'], 'factur-x.xml');
    // exiftool reads the text "1.0" as the number 1: the packet itself says what was written.
    assert.match(xmpPacket(pdf), /<fx:Version>1\.0<\/fx:Version>/);
    assert.equal(xmp['XMP-fx:ConformanceLevel'], 'EN 16931');
    assert.equal(xmp['XMP-pdfaExtension:SchemasNamespaceURI'], 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#');
    assert.equal(xmp['XMP-pdfaExtension:SchemasPrefix'], 'fx');
  });

  await t.test('MINIMUM XML given as it is is embedded byte for byte as Data', async () => {
    const pdf = await pdfOf(await server.render({ html: '<p>FA-2026-017</p>', options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML } } }));
    const [file] = detach(pdf);
    assert.equal(file?.name, 'factur-x.xml');
    assert.equal(file.bytes.toString('utf8'), MINIMUM_XML);
    assert.equal(associatedFiles(pdf)[0]?.spec['/AFRelationship'], '/Data');
    assert.equal(xmpProperties(pdf)['XMP-fx:ConformanceLevel'], 'MINIMUM');
  });

  await t.test('one invoice as a template’s data makes the readable PDF and xrechnung.xml, which agree', async () => {
    const created = await server.request('POST', '/v1/templates', { name: 'Invoice', html: TEMPLATE });
    assert.equal(created.status, 201);
    const { template_id } = (await created.json()) as { template_id: string };
    const pdf = await pdfOf(await server.render({ template_id, data: INVOICE, options: { e_invoice: { profile: 'XRECHNUNG', from_data: true } } }));
    const text = (await inspectPdf(pdf)).text;
    assert.match(text, /Invoice RE-2026-0042/);
    assert.match(text, /Amount due \(EUR\) 1374\.04/);
    assert.match(text, /VAT 19 % on 1109\.70 210\.84/);
    const [file] = detach(pdf);
    assert.equal(file?.name, 'xrechnung.xml');
    assert.ok(validatesAgainst(file.bytes, schemaPath('XRECHNUNG')));
    const xml = file.bytes.toString('utf8');
    assert.match(xml, /<ram:DuePayableAmount>1374\.04<\/ram:DuePayableAmount>/);
    assert.match(xml, /<ram:BuyerReference>04011000-12345-34<\/ram:BuyerReference>/);
    assert.match(xml, /xrechnung_3\.0/);
    assert.equal(xmpProperties(pdf)['XMP-fx:DocumentFileName'], 'xrechnung.xml');
  });

  await t.test('XRechnung in UBL (syntax UBL) is attached as xrechnung.xml with BT-23; UBL for a Factur-X profile is a 400', async () => {
    const pdf = await pdfOf(await server.render({ html: '<p>x</p>', options: { e_invoice: { profile: 'XRECHNUNG', syntax: 'UBL', invoice: INVOICE } } }));
    const [file] = detach(pdf);
    assert.equal(file?.name, 'xrechnung.xml');
    const xml = file.bytes.toString('utf8');
    assert.match(xml, /<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
    assert.match(xml, /<cbc:CustomizationID>urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.0<\/cbc:CustomizationID>/);
    // PEPPOL-EN16931-R001: every XRechnung Quire wrote once lacked the business process.
    assert.match(xml, /<cbc:ProfileID>urn:fdc:peppol\.eu:2017:poacc:billing:01:1\.0<\/cbc:ProfileID>/);
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'EN 16931', syntax: 'UBL', invoice: INVOICE } } });
    assert.equal(error.status, 400);
    assert.match(error.detail, /syntax UBL is for the XRECHNUNG profile/);
  });

  await t.test('XML that fails its XSD is a 400 with the line of every error, uncharged', async () => {
    const broken = MINIMUM_XML.replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>380</ram:TypeCode>\n    <ram:Bogus/>').replace(
      '<ram:Name>Client SA</ram:Name>',
      '<ram:Nom>Client SA</ram:Nom>',
    );
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'MINIMUM', xml: broken } } });
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.e_invoice\.xml does not validate as MINIMUM/);
    assert.match(error.detail, /line 11: Element 'Bogus': This element is not expected/);
    assert.match(error.detail, /line 28: Element 'Nom': This element is not expected\. Expected is \( Name \)\.$/);
  });

  await t.test('XML that is not well-formed is a 400 with its line, uncharged', async () => {
    const error = await refused(server, {
      html: '<p>x</p>',
      options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML.replace('</ram:ID>', '</ram:Id>') } },
    });
    assert.equal(error.status, 400);
    assert.match(error.detail, /line 5: not well-formed/);
  });

  await t.test('XML of another profile than the one declared is a 400 naming both, uncharged', async () => {
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'BASIC WL', xml: MINIMUM_XML } } });
    assert.equal(error.status, 400);
    assert.match(error.detail, /line 5: the XML declares the MINIMUM profile \(urn:factur-x\.eu:1p0:minimum\), not BASIC WL/);
  });

  await t.test('totals that do not add up are a 400 listing each mismatch, uncharged', async () => {
    const invoice = structuredClone(INVOICE) as { lines: { line_total: string }[]; totals: Record<string, string> };
    invoice.lines[1]!.line_total = '149.00';
    invoice.totals.grand_total = '1400.00';
    const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: { profile: 'EN 16931', invoice } } });
    assert.equal(error.status, 400);
    assert.match(error.detail, /options\.e_invoice\.invoice\.lines\[1\]\.line_total is 149\.00, but quantity × unit_price is 149\.70/);
    assert.match(error.detail, /totals\.grand_total is 1400\.00, but tax_basis_total \+ tax_total is 1374\.04 \(BR-CO-15\)/);
    // Every stated amount is checked against what the lines come to (quantity × price), not against
    // another stated amount: the breakdown, line sum and amount due stated here are right.
    assert.doesNotMatch(error.detail, /vat_breakdown|totals\.line_total|due_payable/);
  });

  await t.test('XRechnung without a Leitweg-ID, a JSON invoice for MINIMUM, and from_data without a template are 400s', async () => {
    const { buyer_reference: _, ...noReference } = INVOICE;
    const cases: [unknown, RegExp][] = [
      [{ profile: 'XRECHNUNG', invoice: noReference }, /fails the rule BR-DE-15 of XRechnung 3\.0/],
      [{ profile: 'MINIMUM', invoice: INVOICE }, /profile MINIMUM carries no invoice lines/],
      [{ profile: 'EN 16931', from_data: true }, /from_data needs a template_id render/],
      [{ profile: 'EN 16931', xml: MINIMUM_XML, invoice: INVOICE }, /exactly one of xml, invoice and from_data/],
      [{ profile: 'EN 16931', invoice: { ...INVOICE, currency: 'euro' } }, /e_invoice\.invoice\.currency/],
    ];
    for (const [eInvoice, detail] of cases) {
      const error = await refused(server, { html: '<p>x</p>', options: { e_invoice: eInvoice } });
      assert.equal(error.status, 400, JSON.stringify(eInvoice).slice(0, 80));
      assert.match(error.detail, detail);
    }
  });

  await t.test('an attachment may not take the e-invoice’s name', async () => {
    const error = await refused(server, {
      html: '<p>x</p>',
      options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML }, attachments: [{ filename: 'factur-x.xml', content: 'eA==' }] },
    });
    assert.equal(error.status, 400);
    assert.match(error.detail, /attachments\[0\]\.filename factur-x\.xml is the e-invoice's own name/);
  });

  await t.test('the playground makes the same e-invoice, uncounted', async () => {
    const response = await server.requestWithoutKey(
      'POST',
      '/v1/playground/pdf',
      { html: '<p>FA-2026-017</p>', options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML } } },
      { 'content-type': 'application/json' },
    );
    const [file] = detach(await pdfOf(response));
    assert.equal(file?.name, 'factur-x.xml');
    assert.equal(file.bytes.toString('utf8'), MINIMUM_XML);
  });

  await t.test('the template studio’s preview writes the e-invoice from the editor’s data, uncharged; data that does not add up is a 400', async () => {
    const before = await usageOf(server);
    const options = { e_invoice: { profile: 'EN 16931', from_data: true } };
    const response = await server.admin('POST', '/admin/v1/templates/preview', { html: TEMPLATE, data: INVOICE, options });
    const [file] = detach(await pdfOf(response));
    assert.equal(response.headers.get('x-e-invoice'), 'EN 16931');
    assert.equal(file?.name, 'factur-x.xml');
    assert.match(file.bytes.toString('utf8'), /<ram:GrandTotalAmount>1374\.04<\/ram:GrandTotalAmount>/);
    const totals = { ...(INVOICE.totals as Record<string, unknown>), grand_total: '1.00' };
    const error = await errorOf(await server.admin('POST', '/admin/v1/templates/preview', { html: TEMPLATE, data: { ...INVOICE, totals }, options }));
    assert.equal(error.status, 400);
    assert.match(error.detail, /^The invoice does not add up: .*totals\.grand_total is 1\.00, but tax_basis_total \+ tax_total is 1374\.04 \(BR-CO-15\)/);
    // A template's ordinary sample data is told what an invoice needs, not zod's words or "does not add up".
    const sample = await errorOf(
      await server.admin('POST', '/admin/v1/templates/preview', { html: TEMPLATE, data: { number: 'F-1', customer: 'Ada' }, options }),
    );
    assert.equal(sample.status, 400);
    assert.equal(
      sample.detail,
      'The data is not a complete invoice (docs/api.md#invoice-json): data lacks issue_date, currency, seller, buyer and lines; ' +
        'data has a field an invoice does not have: customer.',
    );
    assert.equal(await usageOf(server), before, 'previews are never charged');
  });

  await t.test('an e-invoice is PDF/A-3b with the Factur-X XMP kept beside the identification; 3u on request; 2b refused', async () => {
    const response = await server.render({ html: '<p>FA-2026-017</p>', options: { e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML } } });
    const pdf = await pdfOf(response);
    const meta = xmpPacket(pdf);
    assert.match(meta, /<pdfaid:part>3<\/pdfaid:part>/);
    assert.match(meta, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
    assert.match(meta, /<fx:ConformanceLevel>MINIMUM<\/fx:ConformanceLevel>/);
    assert.match(meta, /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/);
    assert.equal(detach(pdf)[0]?.bytes.toString('utf8'), MINIMUM_XML, 'the XML survives the PDF/A step byte for byte');
    assert.equal(associatedFiles(pdf)[0]?.spec['/AFRelationship'], '/Data');
    const u = await pdfOf(await server.render({ html: '<p>x</p>', options: { pdf_a: '3u', e_invoice: { profile: 'EN 16931', invoice: INVOICE } } }));
    assert.match(xmpPacket(u), /<pdfaid:conformance>U<\/pdfaid:conformance>/);
    const error = await refused(server, { html: '<p>x</p>', options: { pdf_a: '2b', e_invoice: { profile: 'MINIMUM', xml: MINIMUM_XML } } });
    assert.equal(error.status, 400);
    assert.match(error.detail, /e_invoice/);
  });
});
