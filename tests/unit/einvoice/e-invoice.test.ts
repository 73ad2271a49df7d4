// The e-invoice pieces on their own: the CII XML written for every JSON profile meets its official
// XSD (checked by xmllint here, not by the code under test), the totals check names each mismatch,
// xmllint's messages become lines, and the XMP merge keeps what was there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { invoiceToCii, JSON_PROFILES } from '../../../server/src/einvoice/cii-xml.ts';
import { invoiceSchema, type Invoice } from '../../../server/src/einvoice/invoice-schema.ts';
import { invoiceProblems } from '../../../server/src/einvoice/invoice-totals.ts';
import { parseProblems, schemaPath } from '../../../server/src/einvoice/xsd-check.ts';
import { facturXXmp } from '../../../server/src/einvoice/facturx-xmp.ts';
import { mergeXmp } from '../../../server/src/pdf/embed-files.ts';
import { metadataXmp } from '../../../server/src/pdf/xmp.ts';

const INVOICE: Invoice = invoiceSchema.parse(
  JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'docs', 'examples', 'invoice.json'), 'utf8')),
);

test('the XML written from the invoice meets the official XSD of every profile it is written for', () => {
  for (const profile of JSON_PROFILES) {
    const xml = invoiceToCii(INVOICE, profile);
    // Throws (exit 3) when the XML does not meet the schema.
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath(profile), '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
  }
});

test('BASIC leaves out what its schema does not know (contacts, item descriptions, BIC)', () => {
  const basic = invoiceToCii(INVOICE, 'BASIC');
  assert.doesNotMatch(basic, /DefinedTradeContact|ram:Description>On-site|BICID/);
  assert.match(invoiceToCii(INVOICE, 'EN 16931'), /<ram:BICID>BYLADEM1001<\/ram:BICID>/);
});

test('text is escaped and control characters dropped', () => {
  const xml = invoiceToCii({ ...INVOICE, note: 'A & B <c> \u0001"' }, 'EN 16931');
  assert.match(xml, /<ram:Content>A &#38; B &#60;c&#62; &#34;<\/ram:Content>/);
});

test('a consistent invoice has no problems; each mismatch is named once', () => {
  assert.deepEqual(invoiceProblems(INVOICE, 'EN 16931', 'invoice'), []);
  const broken = structuredClone(INVOICE);
  broken.vat_breakdown[1]!.tax_amount = 4;
  broken.totals.prepaid = 100;
  const problems = invoiceProblems(broken, 'EN 16931', 'invoice');
  assert.deepEqual(problems, [
    'invoice.vat_breakdown[1].tax_amount is 4.00, but 50.00 at 7% is 3.50 (BR-CO-17)',
    'invoice.totals.tax_total is 214.34, but the sum of vat_breakdown tax_amount is 214.84 (BR-CO-14)',
    'invoice.totals.due_payable is 1374.04, but grand_total - prepaid is 1274.04 (BR-CO-16)',
  ]);
});

test('a VAT rate no breakdown covers, a zero rate on S, and a missing exemption reason are named', () => {
  const broken = structuredClone(INVOICE);
  broken.lines.push({ name: 'Export', quantity: 1, unit_code: 'C62', unit_price: 0, line_total: 0, vat_category: 'G', vat_rate: 0 });
  broken.vat_breakdown.push({ vat_category: 'S', vat_rate: 0, taxable_amount: 0, tax_amount: 0 });
  const problems = invoiceProblems(broken, 'EN 16931', 'i').join('\n');
  assert.match(problems, /i\.vat_breakdown\[2\] is for VAT category S at 0%, which no line has/);
  assert.match(problems, /i\.vat_breakdown\[2\]\.vat_rate must be above 0 for VAT category S \(BR-S-05\)/);
  assert.match(problems, /i\.vat_breakdown has no entry for VAT category G at 0%, which lines use \(BR-CO-18\)/);
});

test('xmllint messages become lines and sentences, at most 50 and a count', () => {
  const stderr = [
    "-:12: element Bogus: Schemas validity error : Element '{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}Bogus': This element is not expected.",
    '-:3: parser error : Opening and ending tag mismatch: ID line 3 and Id',
    '        <ram:ID>x</ram:Id>',
    '                         ^',
    '- fails to validate',
  ].join('\n');
  assert.deepEqual(parseProblems(stderr), [
    { line: 12, message: "Element 'Bogus': This element is not expected" },
    { line: 3, message: 'not well-formed: Opening and ending tag mismatch: ID line 3 and Id' },
  ]);
  const many = Array.from({ length: 60 }, (_, index) => `-:${index + 1}: element X: Schemas validity error : bad`).join('\n');
  const problems = parseProblems(many);
  assert.equal(problems.length, 51);
  assert.deepEqual(problems.at(-1), { line: 0, message: 'and 10 more' });
});

test('the Factur-X descriptions join an existing XMP packet, keeping its own, and replace an earlier copy', () => {
  const existing = metadataXmp({ title: 'Invoice', created: new Date(0), modified: new Date(0) });
  const once = mergeXmp(existing, facturXXmp('EN 16931'));
  assert.match(once, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Invoice<\/rdf:li><\/rdf:Alt><\/dc:title>/);
  assert.match(once, /<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
  const twice = mergeXmp(once, facturXXmp('XRECHNUNG'));
  assert.equal(twice.match(/<fx:ConformanceLevel>/g)?.length, 1);
  assert.equal(twice.match(/<pdfaExtension:schemas>/g)?.length, 1);
  assert.match(twice, /<fx:DocumentFileName>xrechnung\.xml<\/fx:DocumentFileName>/);
  assert.match(twice, /<dc:title>/);
  // The packet parses as XML (xmllint, independent of the code that wrote it).
  execFileSync('xmllint', ['--noout', '-'], { input: twice.replace(/^<\?xpacket[^>]*\?>/, ''), stdio: ['pipe', 'pipe', 'pipe'] });
});
