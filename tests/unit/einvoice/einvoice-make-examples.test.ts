// The three example invoices of docs/examples/ (simple; two VAT rates with allowances and charges;
// a reverse-charge credit note) are made into every format: our rule set for the format gives no
// fatal finding, the XML passes the Factur-X XSD of its profile where there is one, and reading the
// XML back gives the model the JSON made (round trip). QUIRE_EINVOICE_OUT=<folder> writes each XML
// there, for the official Schematron by hand (docs/api.md#making-an-e-invoice); nothing is written otherwise.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeAmounts } from '../../../server/src/einvoice/make/json-amounts.ts';
import { jsonToModel } from '../../../server/src/einvoice/make/json-to-model.ts';
import { MakeInputError, makeEInvoice, parseMakeInvoice } from '../../../server/src/einvoice/make/make-einvoice.ts';
import { EINVOICE_FORMATS, type EInvoiceFormat, TARGETS } from '../../../server/src/einvoice/make/targets.ts';
import { readInvoice } from '../../../server/src/einvoice/read/read-invoice.ts';
import { checkInvoice } from '../../../server/src/einvoice/rules/rule-sets.ts';
import { idsOf } from '../../../server/src/einvoice/rules/rule.ts';
import type { EInvoiceProfile } from '../../../server/src/einvoice/profiles.ts';
import { schemaPath, validateAgainstSchema } from '../../../server/src/einvoice/xsd-check.ts';
import { crossComparable, differences } from './round-trip-compare.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'examples');
const NAMES = ['einvoice-simple', 'einvoice-two-rates-allowances', 'einvoice-reverse-charge-credit-note'];
const OUT = process.env.QUIRE_EINVOICE_OUT;
const XSD: Partial<Record<EInvoiceFormat, EInvoiceProfile>> = {
  'facturx-basic': 'BASIC',
  'facturx-en16931': 'EN 16931',
  'facturx-extended': 'EXTENDED',
  'xrechnung-cii': 'XRECHNUNG',
  'en16931-cii': 'EN 16931',
};
const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(EXAMPLES, `${name}.json`), 'utf8'));

/** The JSON without the fields a format refused (`invoice.a.b[2].c cannot be carried…`): what a caller would send it. */
function withoutRefused(json: Record<string, unknown>, error: MakeInputError): Record<string, unknown> {
  const copy = structuredClone(json);
  for (const problem of error.problems) {
    const field = /^invoice\.(\S+) cannot be carried/.exec(problem)?.[1];
    assert.ok(field, `only fields the format cannot carry are refused: ${problem}`);
    const parts = field.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== '');
    const last = parts.pop()!;
    let node = copy as Record<string, unknown>;
    for (const part of parts) node = node[part] as Record<string, unknown>;
    delete node[last];
  }
  return copy;
}

/** The XML of the format, made from the example as it is, or (for a narrower profile) without the fields it refused. */
function made(name: string, format: EInvoiceFormat): { xml: string; json: Record<string, unknown> } {
  const json = example(name);
  try {
    return { xml: makeEInvoice(parseMakeInvoice(json, 'invoice'), format).xml, json };
  } catch (error) {
    if (!(error instanceof MakeInputError) || format !== 'facturx-basic') throw error;
    const narrowed = withoutRefused(json, error);
    return { xml: makeEInvoice(parseMakeInvoice(narrowed, 'invoice'), format).xml, json: narrowed };
  }
}

const FORMATS = EINVOICE_FORMATS.filter((format) => !TARGETS[format].refused);

for (const name of NAMES) {
  test(`${name}: every format passes our rules, its XSD, and reads back as the model the JSON made`, async () => {
    for (const format of FORMATS) {
      const { xml, json } = made(name, format);
      const target = TARGETS[format];
      const read = readInvoice(xml);
      assert.deepEqual(idsOf(checkInvoice(read, target.ruleSet), 'fatal'), [], `${name} ${format}`);
      assert.equal(read.invoice.specification?.value, target.specification, `${format}: BT-24`);
      assert.equal(read.invoice.businessProcess?.value, target.businessProcess, `${format}: BT-23`);
      const invoice = parseMakeInvoice(json, 'invoice');
      const model = jsonToModel(invoice, computeAmounts(invoice, 'invoice').computed!, target, 'invoice');
      assert.deepEqual(differences(crossComparable(model), crossComparable(read.invoice)), [], `${name} ${format}: round trip`);
      const profile = XSD[format];
      if (profile) assert.deepEqual(await validateAgainstSchema(xml, schemaPath(profile), 'xmllint'), [], `${name} ${format}: XSD ${profile}`);
      if (OUT) {
        mkdirSync(OUT, { recursive: true });
        writeFileSync(path.join(OUT, `${name}.${format}.xml`), xml);
      }
    }
  });
}

test('a credit note (381) is a UBL CreditNote and a CII invoice of type 381', () => {
  const ubl = made('einvoice-reverse-charge-credit-note', 'peppol-ubl').xml;
  assert.match(ubl, /^<\?xml[^>]*>\s*<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
  assert.equal(readInvoice(made('einvoice-reverse-charge-credit-note', 'xrechnung-cii').xml).invoice.typeCode?.value, '381');
});
