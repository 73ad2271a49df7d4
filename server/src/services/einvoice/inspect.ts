// The story of POST /v1/einvoice/inspect (docs/api.md#reading-an-e-invoice): read an e-invoice XML
// a business received, name its syntax, document kind and profile (BT-24), run every rule set on
// it, and answer the report and the invoice as JSON. Nothing is charged, stored or fetched.

import { UBL_CREDIT_NOTE_TYPE_CODES } from '../../einvoice/codes/code-lists.ts';
import type { Invoice } from '../../einvoice/model/invoice-model.ts';
import { invoiceJson } from '../../einvoice/model/model-json.ts';
import { readInvoice } from '../../einvoice/read/read-invoice.ts';
import { specificationFacts } from '../../einvoice/read/specification.ts';
import type { Finding } from '../../einvoice/rules/rule.ts';
import { checkInvoice, RULE_SETS, type RuleSetName } from '../../einvoice/rules/rule-sets.ts';
import type { EInvoiceInspection, RuleSetReport } from '../../shapes/einvoice-inspection-json.ts';

/** Rule sets whose rules are not all written yet (docs/decisions.md); none since Peppol was completed, the flag stays for the next one. */
const PARTIAL: ReadonlySet<RuleSetName> = new Set<RuleSetName>();

/** Reads and checks one XML; a refused XML throws XmlRefusedError or NotAnInvoiceError (mapped to 4xx in wire/). */
export function inspectEInvoice(xml: string | Uint8Array): EInvoiceInspection {
  const read = readInvoice(xml);
  const { invoice } = read;
  const specification = invoice.specification?.value ?? null;
  const { profile, ruleSet } = specificationFacts(specification ?? undefined);
  // Every set is run, not only the one BT-24 names: a receiver checks what the buyer's portal will.
  const names = Object.keys(RULE_SETS) as RuleSetName[];
  const ruleSets = Object.fromEntries(names.map((name) => [name, report(checkInvoice(read, name), PARTIAL.has(name))])) as Record<RuleSetName, RuleSetReport>;
  return {
    syntax: invoice.syntax,
    document: documentKind(invoice),
    specification_id: specification,
    profile,
    rule_set: ruleSet,
    valid: ruleSets[ruleSet].fatal.length === 0,
    rule_sets: ruleSets,
    invoice: invoiceJson(invoice),
  };
}

function report(findings: Finding[], partial: boolean): RuleSetReport {
  const wire = (finding: Finding) => ({ id: finding.id, detail: finding.text, location: finding.location });
  return {
    fatal: findings.filter((finding) => finding.flag === 'fatal').map(wire),
    warnings: findings.filter((finding) => finding.flag === 'warning').map(wire),
    ...(partial ? { partial: true as const } : {}),
  };
}

/** UBL says it in the root; CII has one root and says it in the type code (BT-3). */
function documentKind(invoice: Invoice): 'Invoice' | 'CreditNote' {
  if (invoice.root !== 'CrossIndustryInvoice') return invoice.root;
  return UBL_CREDIT_NOTE_TYPE_CODES.has(invoice.typeCode?.value ?? '') ? 'CreditNote' : 'Invoice';
}
