// Our EN 16931 rules against the official verdicts: for every file of the shared e-invoice corpus
// (../shared/einvoice-corpus beside the repository, never copied in), the fatal rule ids we report
// equal the ones the publishers' Schematron reports in expected.json, for all three rule sets.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readInvoice } from '../../../server/src/einvoice/read/read-invoice.ts';
import { checkInvoice, type RuleSetName } from '../../../server/src/einvoice/rules/rule-sets.ts';
import { idsOf } from '../../../server/src/einvoice/rules/rule.ts';

const CORPUS = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'einvoice-corpus');
const present = existsSync(path.join(CORPUS, 'expected.json'));
const skip = present ? false : `the shared corpus is not at ${CORPUS}`;

interface Verdicts {
  files: Record<string, { syntax: 'CII' | 'UBL'; fatal: Record<string, string[]> }>;
}

const expected = (): Verdicts => JSON.parse(readFileSync(path.join(CORPUS, 'expected.json'), 'utf8'));

function differences(set: RuleSetName): string[] {
  const wrong: string[] = [];
  for (const [file, verdict] of Object.entries(expected().files)) {
    const read = readInvoice(readFileSync(path.join(CORPUS, file)));
    assert.equal(read.invoice.syntax, verdict.syntax, `${file}: syntax`);
    const ours = idsOf(checkInvoice(read, set), 'fatal');
    const theirs = verdict.fatal[set] ?? [];
    if (ours.join() !== theirs.join()) wrong.push(`${file}: ours [${ours.join(', ')}], official [${theirs.join(', ')}]`);
  }
  return wrong;
}

test('en16931: our fatal rule ids equal the official CEN 1.3.16 verdict on every corpus file', { skip }, () => {
  assert.equal(Object.keys(expected().files).length, 89);
  assert.deepEqual(differences('en16931'), []);
});

test('xrechnung: our fatal rule ids equal the official XRechnung 2.5.0 verdict (with the Peppol rules it adopts) on every corpus file', { skip }, () => {
  assert.deepEqual(differences('xrechnung'), []);
});

test('peppol: our fatal rule ids equal the official Peppol BIS Billing 3.0.19 verdict on every corpus file', { skip }, () => {
  assert.deepEqual(differences('peppol'), []);
});

test('a broken file is refused with its rule, our sentence and the location of the element at fault', { skip }, () => {
  const read = readInvoice(readFileSync(path.join(CORPUS, 'broken', 'cii-br-co-15-grand-total-mismatch.xml')));
  const findings = checkInvoice(read, 'en16931').filter((finding) => finding.flag === 'fatal');
  assert.deepEqual(
    findings.map((finding) => finding.id),
    ['BR-CO-15'],
  );
  assert.match(findings[0]!.text, /total with VAT \(BT-112\)/);
  assert.equal(
    findings[0]!.location,
    '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount',
  );
  const ubl = readInvoice(readFileSync(path.join(CORPUS, 'broken', 'ubl-br-s-08-line-at-7-percent-no-breakdown.xml')));
  const s08 = checkInvoice(ubl, 'en16931').find((finding) => finding.id === 'BR-S-08');
  assert.equal(s08?.location, '/ubl:Invoice/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount');
});
