// Helpers for the round-trip test: the model without its source locations (and without absent
// terms), a readable list of where two models differ, and the cross-syntax normalisation that
// leaves out the terms one syntax carries and the other has no binding for.

import { isDeepStrictEqual } from 'node:util';
import type { Invoice } from '../../../server/src/einvoice/model/invoice-model.ts';

type Json = unknown;

/** The model as plain data: no `path`, no undefined members. */
export function withoutLocations(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutLocations);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, member]) => key !== 'path' && member !== undefined)
        .map(([key, member]) => [key, withoutLocations(member)]),
    );
  return value;
}

/** Where `a` and `b` differ, as `.a.b[2]: x != y` lines. */
export function differences(a: Json, b: Json, at = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) => differences((a as Record<string, Json>)[key], (b as Record<string, Json>)[key], `${at}.${key}`));
  }
  return [`${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
}

/**
 * What cross-syntax (CII -> UBL) equality compares. Left out, as the two bindings differ:
 * - syntax, root: the syntax itself.
 * - date values: CII writes 20170102 (format 102), UBL 2017-01-02; the ISO date is compared.
 * - amount currencies: UBL puts currencyID on every amount, CII only on the VAT total.
 * - vatPointDateCode: a different code list per syntax (vat-date-code.ts translates it).
 * - invoicePeriod.descriptionCode: UBL's home for BT-8, not a term of its own.
 * - note subject codes (BT-21): UBL has no element for them.
 * - SEPA identifiers of seller/payee and the creditor id's scheme: UBL's home for BT-90.
 * - an empty delivery: CII always writes ApplicableHeaderTradeDelivery, so its reader always has one.
 * - grossPriceBaseQuantity: CII only (UBL has one base quantity per price).
 */
const SKIPPED = new Set(['syntax', 'root', 'vatPointDateCode', 'descriptionCode', 'subjectCode', 'grossPriceBaseQuantity', 'currency']);

export function crossComparable(invoice: Invoice): Json {
  const plain = withoutLocations(invoice) as Record<string, Json>;
  const walk = (value: Json, key = ''): Json => {
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, Json>;
    if ('iso' in record) return { iso: record.iso };
    const out: Record<string, Json> = {};
    for (const [member, inner] of Object.entries(record)) {
      if (SKIPPED.has(member)) continue;
      if (member === 'delivery' && Object.keys(inner as object).length === 0) continue;
      if (member === 'identifiers') out[member] = (inner as { scheme?: string }[]).filter((id) => id.scheme !== 'SEPA').map((id) => walk(id));
      else if (member === 'creditorId') out[member] = { value: (inner as { value: string }).value };
      else out[member] = walk(inner, member);
    }
    return out;
  };
  return walk(plain);
}
