// The small CII value shapes the CII writers share: a date as udt:DateTimeString format 102, an
// amount (currencyID only where the source had one, or where asked), and an identifier that is a
// ram:GlobalID when it has a scheme (ICD) and a plain ram:ID when it has none.

import type { Amount, DateValue, Identifier } from '../model/invoice-model.ts';
import { group, leaf, type XmlElement } from './xml-tree.ts';

/**
 * A date element holding `inner` in format 102 (YYYYMMDD): udt:DateTimeString for most dates,
 * qdt:DateTimeString for formatted ones (BT-26), udt:DateString for the tax point date (BT-7).
 */
export function ciiDate(name: string, date: DateValue | undefined, inner = 'udt:DateTimeString'): XmlElement | undefined {
  if (!date) return undefined;
  // A UBL date (or any date read as valid) is written as 102; an unreadable one is kept as it came.
  const text = date.iso ? date.iso.replaceAll('-', '') : date.value;
  return group(name, leaf(inner, text, { format: date.iso ? '102' : (date.format ?? '102') }));
}

export const ciiAmount = (name: string, amount: Amount | undefined, currency?: string) =>
  leaf(name, amount?.value, { currencyID: amount?.currency ?? currency });

/** Party and location identifiers: with a scheme a GlobalID, without one an ID. */
export function ciiIds(ids: (Identifier | undefined)[]): (XmlElement | undefined)[] {
  const present = ids.filter((id): id is Identifier => id !== undefined);
  return [
    ...present.filter((id) => id.scheme === undefined).map((id) => leaf('ram:ID', id.value)),
    ...present.filter((id) => id.scheme !== undefined).map((id) => leaf('ram:GlobalID', id.value, { schemeID: id.scheme })),
  ];
}
