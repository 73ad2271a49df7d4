// One rule check as a thread runs it (or the main thread, when no thread can start): the XML read
// safely into the model (read/read-invoice.ts), then the named rule set over it.

import { readInvoice } from '../read/read-invoice.ts';
import type { Finding } from '../rules/rule.ts';
import { checkInvoice, type RuleSetName } from '../rules/rule-sets.ts';

export interface RuleTask {
  xml: string;
  rules: RuleSetName;
}

export function runRuleTask({ xml, rules }: RuleTask): Finding[] {
  return checkInvoice(readInvoice(xml), rules);
}
