// What a rule is and how a set of them runs: a rule has the official id, its flag, our own
// sentence, and a check over the model that yields the location of every place it fails. Plain
// functions over a model read once: nothing is compiled per call.

import type { Invoice } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';

export type Flag = 'fatal' | 'warning';

/** The invoice the rules look at: the model, and the XML it came from for the syntax rules. */
export interface RuleInput {
  invoice: Invoice;
  root?: Node;
}

export interface Rule {
  id: string;
  flag: Flag;
  /** Our sentence, saying what the invoice must do. */
  text: string;
  /** The location (source path) of each failure; none when the invoice meets the rule. */
  check(input: RuleInput): Iterable<string>;
}

export interface Finding {
  id: string;
  flag: Flag;
  text: string;
  location: string;
}

export function runRules(rules: readonly Rule[], input: RuleInput): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    for (const location of rule.check(input)) findings.push({ id: rule.id, flag: rule.flag, text: rule.text, location });
  }
  return findings;
}

/** The distinct ids of the findings with a flag, sorted (how expected.json states a verdict). */
export function idsOf(findings: readonly Finding[], flag: Flag): string[] {
  return [...new Set(findings.filter((finding) => finding.flag === flag).map((finding) => finding.id))].sort();
}

/** A rule whose check yields the given location when `failing` says so, for one-place rules. */
export function rule(id: string, text: string, failing: (invoice: Invoice) => string | false | undefined, flag: Flag = 'fatal'): Rule {
  return {
    id,
    flag,
    text,
    *check({ invoice }) {
      const location = failing(invoice);
      if (location) yield location;
    },
  };
}

/** A rule checked once per item of a list the invoice has (lines, allowances, breakdown...). */
export function eachRule<T extends { path: string }>(
  id: string,
  text: string,
  items: (invoice: Invoice) => readonly T[],
  failing: (item: T, invoice: Invoice) => string | boolean | undefined,
  flag: Flag = 'fatal',
): Rule {
  return {
    id,
    flag,
    text,
    *check({ invoice }) {
      for (const item of items(invoice)) {
        const result = failing(item, invoice);
        if (result) yield typeof result === 'string' ? result : item.path;
      }
    },
  };
}
