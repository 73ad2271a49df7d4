// The invoice schema's complaints as sentences a person can act on: fields that are missing are
// gathered per object ("data lacks issue_date, currency and seller"), the rest say what the value
// must be. zod's own wording ("Invalid input: expected string, received undefined") never reaches
// a caller; a message of our own (make/json-values.ts's regex messages) is kept as written.

import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** One sentence per object with missing fields, then one per other problem; `from` names the root (data, options.e_invoice.invoice). */
export function issueSentences(issues: readonly Issue[], input: unknown, from: string): string[] {
  const missing = new Map<string, string[]>();
  const others: string[] = [];
  for (const issue of issues) {
    const where = pathName(from, issue.path);
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined && issue.path.length > 0) {
      const parent = pathName(from, issue.path.slice(0, -1));
      missing.set(parent, [...(missing.get(parent) ?? []), String(issue.path.at(-1))]);
    } else {
      others.push(`${where} ${issueText(issue)}`);
    }
  }
  return [...[...missing].map(([parent, names]) => `${parent} lacks ${list(names)}`), ...others];
}

function issueText(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field' : 'fields'} an invoice does not have: ${list(issue.keys)}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `needs at least ${issue.minimum} ${Number(issue.minimum) === 1 ? 'entry' : 'entries'}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `has more than ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${list(
        issue.values.map((value) => JSON.stringify(value)),
        'or',
      )}`;
    case 'invalid_format':
      return issue.format === 'email' ? 'must be an email address' : ownMessage(issue.message, 'is not in the expected form');
    case 'invalid_union':
      return 'must be a number or a decimal string such as "1109.70"';
    default:
      return ownMessage(issue.message, 'is not valid here');
  }
}

/** Our schema's own messages start "must ..."; zod's generic ones ("Invalid input") are replaced. */
function ownMessage(message: string, fallback: string): string {
  return /^must /.test(message) ? message : fallback;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function list(names: readonly string[], last = 'and'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

function pathName(from: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : `${name}.${String(part)}`), from).replace(/^\./, '');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
