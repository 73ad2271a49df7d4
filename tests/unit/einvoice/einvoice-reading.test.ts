// Reading an e-invoice: hostile XML is refused before anything is expanded or fetched, amounts
// keep their exact decimal value, and both syntaxes land in the same model.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dec, round, show, sum } from '../../../server/src/einvoice/model/decimal.ts';
import { NotAnInvoiceError, readInvoice } from '../../../server/src/einvoice/read/read-invoice.ts';
import { parseXml, XmlRefusedError } from '../../../server/src/einvoice/xml/safe-xml.ts';

const refusal = (reason: string) => (error: unknown) => error instanceof XmlRefusedError && error.reason === reason;

test('an XML with an external entity (XXE) is refused, and nothing is read from the file it names', () => {
  const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
  assert.throws(() => parseXml(xxe), refusal('doctype'));
});

test('an entity bomb is refused before any expansion', () => {
  const levels = Array.from({ length: 10 }, (_, n) => `<!ENTITY e${n + 1} "${`&e${n};`.repeat(10)}">`).join('');
  const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e0 "boom">${levels}]><r>&e10;</r>`;
  assert.throws(() => parseXml(bomb), refusal('doctype'));
});

test('an XML over the size bound is refused without being parsed', () => {
  assert.throws(() => parseXml(`<r>${'x'.repeat(2048)}</r>`, 1024), refusal('too_large'));
});

test('malformed XML and a root that is no invoice are refused with what is wrong', () => {
  assert.throws(() => parseXml('<r><unclosed></r>'), refusal('malformed'));
  assert.throws(() => readInvoice('<html xmlns="http://www.w3.org/1999/xhtml"/>'), NotAnInvoiceError);
});

test('decimal sums are exact where binary floats are not', () => {
  // 0.1 + 0.2 in floats is 0.30000000000000004; three line amounts of 33.335 round to 100.01, not 100.00.
  assert.equal(sum([dec('0.1'), dec('0.2')]), dec('0.3'));
  assert.equal(show(round(sum([dec('33.335'), dec('33.335'), dec('33.335')]))), '100.01');
  assert.equal(show(round(dec('-0.005')!)), '0.00');
  assert.equal(dec('19'), dec('19.00'));
  assert.equal(dec('12,50'), undefined);
});
