// Turns zod issues into one sentence for a person that names the field, what was wrong and what
// is allowed ("options.scale must be between 0.1 and 2.0").

import type { z } from 'zod';
import { ApiError } from '../errors.ts';

/** Parses input with schema, or throws 400 invalid_request naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ApiError('invalid_request', describeIssue(result.error.issues[0]!, what));
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text;
}

function describeIssue(issue: z.core.$ZodIssue, what: string): string {
  const field = formatPath(issue.path);
  const subject = field || what;
  switch (issue.code) {
    case 'invalid_type': {
      const received = describeReceived(issue.input);
      if (received === 'missing') return field ? `${subject} is required` : `${subject} is missing`;
      // A number refused as a number is Infinity (JSON's 1e400): say finite.
      const expected = issue.expected === 'number' && typeof issue.input === 'number' ? 'finite number' : issue.expected;
      return `${subject} must be ${article(expected)} (got ${received})`;
    }
    case 'unrecognized_keys': {
      const key = issue.keys[0]!;
      const name = field ? `${field}.${key}` : key;
      const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      return `${name} is not a known field${snake !== key ? ` (did you mean ${snake}?)` : ''}`;
    }
    case 'invalid_value':
      return `${subject} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string') return `${subject} must not be empty`;
      if (issue.origin === 'array') return `${subject} must have at least ${issue.minimum} entries`;
      return `${subject} ${issue.message}`;
    case 'too_big':
      if (issue.origin === 'string') return `${subject} must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `${subject} must have at most ${issue.maximum} entries`;
      return `${subject} ${issue.message}`;
    default:
      return `${subject} ${issue.message}`;
  }
}

// zod's names for what it expected, as a person would say them.
const EXPECTED_NAMES: Record<string, string> = { int: 'whole number', record: 'object' };

function article(expected: string): string {
  const name = EXPECTED_NAMES[expected] ?? expected;
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** What the caller sent instead: its JSON type, or the number itself ("got 1.5" says more than "got number"). */
function describeReceived(input: unknown): string {
  if (input === undefined) return 'missing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number') return String(input);
  return typeof input;
}
