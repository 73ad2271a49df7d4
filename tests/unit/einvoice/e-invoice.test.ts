// The e-invoice pieces on their own: xmllint's messages become lines, and the XMP merge keeps what
// was there. (The XML written from JSON meets each profile's XSD: einvoice-make-examples.test.ts.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parseProblems } from '../../../server/src/einvoice/xsd-check.ts';
import { facturXXmp } from '../../../server/src/einvoice/facturx-xmp.ts';
import { mergeXmp } from '../../../server/src/pdf/embed-files.ts';
import { metadataXmp } from '../../../server/src/pdf/xmp.ts';

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
