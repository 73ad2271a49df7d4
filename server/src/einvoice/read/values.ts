// The small conversions both readers share: a located text, amount, identifier, quantity or date
// from an element, each undefined when the element is absent, so the model says "not given".

import type { Amount, DateValue, Identifier, Quantity, Text } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';

export function text(node: Node | undefined): Text | undefined {
  return node ? { value: node.text.trim(), path: node.path } : undefined;
}

/** A text kept exactly as written, line breaks included (payment terms carry structured lines). */
export function rawText(node: Node | undefined): Text | undefined {
  return node ? { value: node.text, path: node.path } : undefined;
}

export function amount(node: Node | undefined): Amount | undefined {
  if (!node) return undefined;
  const currency = node.attr('currencyID');
  return { value: node.text.trim(), path: node.path, ...(currency === undefined ? {} : { currency }) };
}

/** An identifier; `schemeAttribute` is schemeID, or listID for item classifications. */
export function identifier(node: Node | undefined, schemeAttribute = 'schemeID'): Identifier | undefined {
  if (!node) return undefined;
  const scheme = node.attr(schemeAttribute);
  return { value: node.text.trim(), path: node.path, ...(scheme === undefined ? {} : { scheme }) };
}

export function quantity(node: Node | undefined): Quantity | undefined {
  if (!node) return undefined;
  const unitCode = node.attr('unitCode');
  return { value: node.text.trim(), path: node.path, ...(unitCode === undefined ? {} : { unitCode }) };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CII_102 = /^(\d{4})(\d{2})(\d{2})$/;

function validDate(year: string, month: string, day: string): string | undefined {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const ok = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return ok ? `${year}-${month}-${day}` : undefined;
}

/** A UBL date (xs:date, YYYY-MM-DD). */
export function ublDate(node: Node | undefined): DateValue | undefined {
  if (!node) return undefined;
  const value = node.text.trim();
  const match = ISO_DATE.exec(value);
  const iso = match ? validDate(match[1]!, match[2]!, match[3]!) : undefined;
  return { value, path: node.path, ...(iso ? { iso } : {}) };
}

/** A CII date: the udt:DateTimeString (or udt:DateString) inside `node`, format 102 = YYYYMMDD. */
export function ciiDate(node: Node | undefined): DateValue | undefined {
  const inner = node?.one('udt:DateTimeString') ?? node?.one('udt:DateString') ?? node?.one('qdt:DateTimeString');
  if (!inner) return undefined;
  const value = inner.text.trim();
  const format = inner.attr('format');
  const match = CII_102.exec(value);
  const iso = format === '102' && match ? validDate(match[1]!, match[2]!, match[3]!) : undefined;
  return { value, path: inner.path, ...(format === undefined ? {} : { format }), ...(iso ? { iso } : {}) };
}
