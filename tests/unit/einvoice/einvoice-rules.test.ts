// Rules the corpus does not exercise, on valid corpus files changed in memory by one edit each:
// the verdict goes from passing to exactly the rule the edit breaks, at the edited element.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readInvoice } from '../../../server/src/einvoice/read/read-invoice.ts';
import { checkInvoice, type RuleSetName } from '../../../server/src/einvoice/rules/rule-sets.ts';
import { idsOf } from '../../../server/src/einvoice/rules/rule.ts';

const BROKEN = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'einvoice-corpus', 'broken');
const skip = existsSync(BROKEN) ? false : `the shared corpus is not at ${BROKEN}`;

function verdict(file: string, set: RuleSetName, edit?: (xml: string) => string) {
  const xml = readFileSync(path.join(BROKEN, file), 'utf8');
  const changed = edit ? edit(xml) : xml;
  if (edit) assert.notEqual(changed, xml, 'the edit applied');
  const findings = checkInvoice(readInvoice(changed), set);
  return { fatal: idsOf(findings, 'fatal'), warnings: idsOf(findings, 'warning'), findings };
}

test('a UBL line with two item VAT categories breaks UBL-SR-48 only', { skip }, () => {
  assert.deepEqual(verdict('ubl-en16931-valid.xml', 'en16931').fatal, []);
  const twice = verdict('ubl-en16931-valid.xml', 'en16931', (xml) => xml.replace(/(<cac:ClassifiedTaxCategory>[\s\S]*?<\/cac:ClassifiedTaxCategory>)/, '$1$1'));
  assert.deepEqual(twice.fatal, ['UBL-SR-48']);
  assert.match(twice.findings[0]!.location, /^\/ubl:Invoice\/cac:InvoiceLine\[1\]$/);
});

test('split payment (B) beside standard rate (S) breaks BR-B-02, and outside Italy BR-B-01', { skip }, () => {
  const split = verdict('cii-en16931-valid.xml', 'en16931', (xml) =>
    xml.replace(/<ram:CategoryCode>S<\/ram:CategoryCode>/, '<ram:CategoryCode>B</ram:CategoryCode>'),
  );
  assert.ok(split.fatal.includes('BR-B-01') && split.fatal.includes('BR-B-02'), split.fatal.join());
});

test('XRechnung: a malformed Skonto line in the payment terms breaks BR-DE-18; a well-formed one passes', { skip }, () => {
  const terms = (text: string) => (xml: string) =>
    xml.replace(/<ram:Description>[^<]*<\/ram:Description>(\s*<ram:DueDateDateTime>)/, `<ram:Description>${text}</ram:Description>$1`);
  assert.deepEqual(verdict('cii-xrechnung-valid.xml', 'xrechnung').fatal, []);
  assert.deepEqual(verdict('cii-xrechnung-valid.xml', 'xrechnung', terms('#SKONTO#TAGE=14#PROZENT=2.00#\n')).fatal, []);
  assert.deepEqual(verdict('cii-xrechnung-valid.xml', 'xrechnung', terms('#SKONTO#TAGE=14#PROZENT=2,0#\n')).fatal, ['BR-DE-18']);
});

test('XRechnung warns on an IBAN whose check digits are wrong (BR-DE-19)', { skip }, () => {
  const ok = verdict('cii-xrechnung-valid.xml', 'xrechnung');
  assert.ok(!ok.warnings.includes('BR-DE-19'));
  const iban = /<ram:IBANID>([A-Z]{2})(\d{2})/;
  const wrong = verdict('cii-xrechnung-valid.xml', 'xrechnung', (xml) =>
    xml.replace(iban, (_, country, check) => `<ram:IBANID>${country}${String((Number(check) + 1) % 100).padStart(2, '0')}`),
  );
  assert.ok(wrong.warnings.includes('BR-DE-19'), wrong.warnings.join());
});
