// Finds the e-invoice rule reports a receipt's steps carry, whatever shape the step gave them
// (issue 41, item 5): an object with fatal and/or warnings lists of {id, detail, location}, at any
// depth of a step's report (the attachments step's e_invoice, a step of its own), and the
// X-E-Invoice-Report line as a string. Generic on purpose: the receipt is read, never assumed.

import { RULE_SET_LABELS, type RuleFinding, type RuleSetName } from '../api/einvoice.ts';
import { plural } from './format.ts';

export interface FoundRuleReport {
  /** The step that carried it (attachments, e_invoice, ...). */
  step: string;
  /** The rule set it names (rules, rule_set or set), when it names one. */
  ruleSet?: RuleSetName | string;
  fatal: RuleFinding[];
  warnings: RuleFinding[];
  /** A report recorded as the header's line ("rules=en16931; fatal=0; warnings=2"). */
  line?: string;
}

const MAX_DEPTH = 4;
/** The X-E-Invoice-Report header's shape: rules=<set>; fatal=N; ... */
const REPORT_LINE = /^rules=[\w-]+; *fatal=\d+/;

const isFinding = (value: unknown): value is RuleFinding =>
  !!value && typeof value === 'object' && typeof (value as RuleFinding).id === 'string' && typeof (value as RuleFinding).detail === 'string';
const findings = (value: unknown): RuleFinding[] | undefined => (Array.isArray(value) && value.every(isFinding) ? value : undefined);

function collect(step: string, value: unknown, depth: number, into: FoundRuleReport[]): void {
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(step, item, depth + 1, into);
    return;
  }
  const record = value as Record<string, unknown>;
  const fatal = findings(record.fatal);
  const warnings = findings(record.warnings);
  if (fatal || warnings) {
    const named = record.rules ?? record.rule_set ?? record.set;
    into.push({ step, ruleSet: typeof named === 'string' ? named : undefined, fatal: fatal ?? [], warnings: warnings ?? [] });
    return;
  }
  for (const nested of Object.values(record)) {
    if (typeof nested === 'string' && REPORT_LINE.test(nested)) into.push({ step, fatal: [], warnings: [], line: nested });
    else collect(step, nested, depth + 1, into);
  }
}

/** Every rule report in the steps' reports, in step order. */
export function ruleReportsOf(steps: readonly { step: string; report: Record<string, unknown> | null }[] | undefined): FoundRuleReport[] {
  const found: FoundRuleReport[] = [];
  for (const step of steps ?? []) collect(step.step, step.report, 0, found);
  return found;
}

/** "rules=en16931; fatal=0; warnings=2; ids=BR-DE-21,BR-DE-22" as words, for a result line. */
export function describeReportHeader(header: string): string {
  const facts = new Map(
    header.split(';').map((part) => {
      const [name = '', ...value] = part.trim().split('=');
      return [name, value.join('=')] as const;
    }),
  );
  const set = facts.get('rules') as RuleSetName | undefined;
  const name = set ? (RULE_SET_LABELS[set] ?? set) : 'e-invoice';
  const ids = facts.get('ids');
  return `${name} rules: ${facts.get('fatal') ?? '?'} fatal, ${warningsOf(facts.get('warnings'))}${ids ? ` (${ids.split(',').join(', ')})` : ''}`;
}

const warningsOf = (count: string | undefined) => (count && /^\d+$/.test(count) ? plural(Number(count), 'warning') : '? warnings');
