// The EN 16931 model as a reader of the API sees it: keys in snake_case, and no source locations
// (every value's `path`, which only the rule findings need). A located value with nothing but its
// text becomes that text; one with attributes (currency, scheme, unit_code) stays an object.

import type { Invoice } from './invoice-model.ts';

export function invoiceJson(invoice: Invoice): Record<string, unknown> {
  return withoutLocations(invoice) as Record<string, unknown>;
}

function withoutLocations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLocations);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key, item]) => key !== 'path' && item !== undefined);
  if (entries.length === 1 && entries[0]![0] === 'value') return entries[0]![1];
  return Object.fromEntries(entries.map(([key, item]) => [snakeCase(key), withoutLocations(item)]));
}

const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
