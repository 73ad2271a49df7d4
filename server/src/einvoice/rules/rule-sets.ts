// The rule sets an invoice can be checked against, by name. `en16931` is the CEN rule set
// (business rules, VAT categories, totals, decimals, code lists, and the syntax rules of the
// invoice's own syntax). The CIUS sets (XRechnung, Peppol) build on it.

import { CODE_LIST_RULES } from './code-list-rules.ts';
import { DOCUMENT_RULES } from './core-document.ts';
import { LINE_RULES } from './core-lines.ts';
import { DECIMAL_RULES } from './decimals.ts';
import { type Finding, type Rule, type RuleInput, runRules } from './rule.ts';
import { PEPPOL_RULES as PEPPOL_OWN_RULES } from './peppol.ts';
import { PEPPOL_CODE_RULES } from './peppol-codes.ts';
import { PEPPOL_IDENTIFIER_RULES } from './peppol-identifiers.ts';
import { PEPPOL_NATIONAL_RULES } from './peppol-national.ts';
import { PEPPOL_SHARED_RULES } from './peppol-shared.ts';
import { PEPPOL_SYNTAX_RULES } from './peppol-syntax.ts';
import { CII_SYNTAX_RULES } from './syntax-cii.ts';
import { CII_DATATYPE_RULES } from './syntax-cii-datatypes.ts';
import { CII_STRUCTURE_RULES } from './syntax-cii-structure.ts';
import { UBL_SYNTAX_RULES } from './syntax-ubl.ts';
import { TOTAL_RULES } from './totals.ts';
import { VAT_EXTRA_RULES } from './vat-category-extra.ts';
import { VAT_CATEGORY_RULES } from './vat-categories.ts';
import { XRECHNUNG_RULES } from './xrechnung.ts';
import type { RuleSetName } from '../../shapes/einvoice-inspection-json.ts';

export const EN16931_RULES: readonly Rule[] = [
  ...DOCUMENT_RULES,
  ...LINE_RULES,
  ...TOTAL_RULES,
  ...DECIMAL_RULES,
  ...VAT_CATEGORY_RULES,
  ...VAT_EXTRA_RULES,
  ...CODE_LIST_RULES,
  ...CII_SYNTAX_RULES,
  ...CII_STRUCTURE_RULES,
  ...CII_DATATYPE_RULES,
  ...UBL_SYNTAX_RULES,
];

const PEPPOL_RULES: Record<string, Rule> = { ...PEPPOL_SHARED_RULES, ...PEPPOL_SYNTAX_RULES };
const peppol = (ids: string[]): Rule[] => ids.map((id) => PEPPOL_RULES[id]!);

/** The Peppol rules both XRechnung's list and Peppol's own run alike (R008, R044, R046 and R120 differ between them). */
const PEPPOL_IN_BOTH = [
  'PEPPOL-EN16931-R001',
  'PEPPOL-EN16931-R005',
  'PEPPOL-EN16931-R010',
  'PEPPOL-EN16931-R020',
  'PEPPOL-EN16931-R040',
  'PEPPOL-EN16931-R041',
  'PEPPOL-EN16931-R042',
  'PEPPOL-EN16931-R043',
  'PEPPOL-EN16931-R054',
  'PEPPOL-EN16931-R055',
  'PEPPOL-EN16931-R061',
  'PEPPOL-EN16931-R101',
  'PEPPOL-EN16931-R110',
  'PEPPOL-EN16931-R111',
  'PEPPOL-EN16931-R121',
  'PEPPOL-EN16931-R130',
];

/**
 * XRechnung 3.0 (KoSIT Schematron 2.5.0): the CEN rules, the BR-DE rules, and the Peppol rules
 * KoSIT's list takes over (R120 there as a warning). R053 is left out: KoSIT's variant of it
 * reports none of the corpus files Peppol's own does, and we have not written that variant yet.
 */
export const XRECHNUNG_RULE_SET: readonly Rule[] = [
  ...EN16931_RULES,
  ...XRECHNUNG_RULES,
  ...peppol([...PEPPOL_IN_BOTH, 'PEPPOL-EN16931-R008', 'PEPPOL-EN16931-R044', 'PEPPOL-EN16931-R046']),
  { ...PEPPOL_RULES['PEPPOL-EN16931-R120']!, flag: 'warning' },
];

/** A rule Peppol's artefacts check in UBL only. */
const ublOnly = (rule: Rule): Rule => ({ ...rule, check: (input) => (input.invoice.syntax === 'UBL' ? rule.check(input) : []) });

/** Peppol BIS Billing 3.0 (3.0.19): the CEN rules, then every Peppol rule for invoices and credit notes. */
export const PEPPOL_RULE_SET: readonly Rule[] = [
  ...EN16931_RULES,
  ...PEPPOL_OWN_RULES,
  ...PEPPOL_CODE_RULES,
  ...PEPPOL_IDENTIFIER_RULES,
  ...PEPPOL_NATIONAL_RULES,
  ...peppol([...PEPPOL_IN_BOTH, 'PEPPOL-EN16931-R120']),
  ...peppol(['PEPPOL-EN16931-R008', 'PEPPOL-EN16931-R044', 'PEPPOL-EN16931-R046']).map(ublOnly),
];

// One set per name the API shows (shapes/): a set added here without its name there, or the reverse, fails to compile.
export const RULE_SETS = { en16931: EN16931_RULES, xrechnung: XRECHNUNG_RULE_SET, peppol: PEPPOL_RULE_SET } as const satisfies Record<
  RuleSetName,
  readonly Rule[]
>;
export type { RuleSetName };

export function checkInvoice(input: RuleInput, set: RuleSetName = 'en16931'): Finding[] {
  return runRules(RULE_SETS[set], input);
}
