// Small questions many rules ask of the model: is a term given, its decimal value, which VAT
// categories the lines and allowances use, the document's allowances and charges apart.

import { dec, type Dec } from '../model/decimal.ts';
import type { AllowanceCharge, Invoice, Located } from '../model/invoice-model.ts';

/** Given and not blank (XPath normalize-space(.) != ''). */
export const filled = (term: Located | undefined): term is Located => term !== undefined && term.value.trim() !== '';

export const code = (term: Located | undefined): string | undefined => term?.value.trim();

export const num = (term: Located | undefined): Dec | undefined => dec(term?.value);

/** The decimal value, 0 when absent or not a number (XPath sum() over nothing). */
export const numOr0 = (term: Located | undefined): Dec => num(term) ?? 0n;

export const allowances = (invoice: Invoice): AllowanceCharge[] => invoice.allowancesCharges.filter((entry) => !entry.isCharge);
export const charges = (invoice: Invoice): AllowanceCharge[] => invoice.allowancesCharges.filter((entry) => entry.isCharge);
export const lineAllowanceCharges = (invoice: Invoice): AllowanceCharge[] => invoice.lines.flatMap((line) => line.allowancesCharges);

/** Does any line, document allowance or document charge use this VAT category? */
export function categoryUsed(invoice: Invoice, category: string): boolean {
  return invoice.lines.some((line) => code(line.vatCategory) === category) || invoice.allowancesCharges.some((entry) => code(entry.vatCategory) === category);
}

export const breakdownOf = (invoice: Invoice, category: string) => invoice.vatBreakdown.filter((entry) => code(entry.categoryCode) === category);

/** Two decimals equal as numbers ("19" = "19.00"); false when either is missing. */
export function sameNumber(a: Located | undefined, b: Located | undefined): boolean {
  const x = num(a);
  const y = num(b);
  return x !== undefined && y !== undefined && x === y;
}

/** Where a missing term would be: its parent's path and its name. */
export const missing = (parentPath: string, term: string): string => `${parentPath} (${term} missing)`;
