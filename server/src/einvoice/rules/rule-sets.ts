// The rule sets an invoice can be checked against, by name. `en16931` is the CEN rule set
// (business rules, VAT categories, totals, decimals, code lists, and the syntax rules of the
// invoice's own syntax). The CIUS sets (XRechnung, Peppol) build on it as they are finished.

import { CODE_LIST_RULES } from './code-list-rules.ts';
import { DOCUMENT_RULES } from './core-document.ts';
import { LINE_RULES } from './core-lines.ts';
import { DECIMAL_RULES } from './decimals.ts';
import { type Finding, type Rule, type RuleInput, runRules } from './rule.ts';
import { CII_SYNTAX_RULES } from './syntax-cii.ts';
import { TOTAL_RULES } from './totals.ts';
import { VAT_EXTRA_RULES } from './vat-category-extra.ts';
import { VAT_CATEGORY_RULES } from './vat-categories.ts';

export const EN16931_RULES: readonly Rule[] = [
  ...DOCUMENT_RULES,
  ...LINE_RULES,
  ...TOTAL_RULES,
  ...DECIMAL_RULES,
  ...VAT_CATEGORY_RULES,
  ...VAT_EXTRA_RULES,
  ...CODE_LIST_RULES,
  ...CII_SYNTAX_RULES,
];

export const RULE_SETS = { en16931: EN16931_RULES } as const;
export type RuleSetName = keyof typeof RULE_SETS;

export function checkInvoice(input: RuleInput, set: RuleSetName = 'en16931'): Finding[] {
  return runRules(RULE_SETS[set], input);
}
