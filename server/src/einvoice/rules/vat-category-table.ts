// What differs between the VAT categories (UNTDID 5305 codes EN 16931 uses), as data: the rule id
// prefix, what a rate may be, whether an exemption reason is required or forbidden, which VAT
// identifiers the parties must (or must not) have, and how closely the taxable amount per
// category must match the lines (the published artefacts differ here by syntax; we follow them).

import type { Syntax } from '../model/invoice-model.ts';

export type RateRule = 'positive' | 'zero' | 'none' | 'zero-or-more';
export type PartyRule = 'seller-vat-or-tax-id' | 'seller-vat' | 'seller-vat-and-buyer-id' | 'seller-and-buyer-vat' | 'no-vat-ids';

export interface VatCategory {
  code: string;
  /** The id prefix of the category's rules: BR-S, BR-Z, BR-E, BR-AE, BR-IC, BR-G, BR-O, BR-AF, BR-AG. */
  prefix: string;
  name: string;
  rate: RateRule;
  /** A VAT amount is computed from the rate (S, L, M); the others carry 0 VAT. */
  taxed: boolean;
  /** The breakdown is per rate as well as per category (S, L, M). */
  perRate: boolean;
  exemptionReason: 'required' | 'forbidden';
  parties: PartyRule;
}

export const VAT_CATEGORIES: readonly VatCategory[] = [
  {
    code: 'S',
    prefix: 'BR-S',
    name: 'Standard rated',
    rate: 'positive',
    taxed: true,
    perRate: true,
    exemptionReason: 'forbidden',
    parties: 'seller-vat-or-tax-id',
  },
  { code: 'Z', prefix: 'BR-Z', name: 'Zero rated', rate: 'zero', taxed: false, perRate: false, exemptionReason: 'forbidden', parties: 'seller-vat-or-tax-id' },
  {
    code: 'E',
    prefix: 'BR-E',
    name: 'Exempt from VAT',
    rate: 'zero',
    taxed: false,
    perRate: false,
    exemptionReason: 'required',
    parties: 'seller-vat-or-tax-id',
  },
  {
    code: 'AE',
    prefix: 'BR-AE',
    name: 'Reverse charge',
    rate: 'zero',
    taxed: false,
    perRate: false,
    exemptionReason: 'required',
    parties: 'seller-vat-and-buyer-id',
  },
  {
    code: 'K',
    prefix: 'BR-IC',
    name: 'Intra-community supply',
    rate: 'zero',
    taxed: false,
    perRate: false,
    exemptionReason: 'required',
    parties: 'seller-and-buyer-vat',
  },
  { code: 'G', prefix: 'BR-G', name: 'Export outside the EU', rate: 'zero', taxed: false, perRate: false, exemptionReason: 'required', parties: 'seller-vat' },
  { code: 'O', prefix: 'BR-O', name: 'Not subject to VAT', rate: 'none', taxed: false, perRate: false, exemptionReason: 'required', parties: 'no-vat-ids' },
  {
    code: 'L',
    prefix: 'BR-AF',
    name: 'IGIC (Canary Islands)',
    rate: 'zero-or-more',
    taxed: true,
    perRate: true,
    exemptionReason: 'forbidden',
    parties: 'seller-vat-or-tax-id',
  },
  {
    code: 'M',
    prefix: 'BR-AG',
    name: 'IPSI (Ceuta and Melilla)',
    rate: 'zero-or-more',
    taxed: true,
    perRate: true,
    exemptionReason: 'forbidden',
    parties: 'seller-vat-or-tax-id',
  },
];

/**
 * How the taxable amount of a category (BT-116) is compared to its lines, allowances and charges:
 * whether each of the three sums is rounded to 2 decimals first, and the tolerance (a difference
 * below it passes; 0 = exact). CII compares S, L and M exactly and the others within 1; UBL the
 * other way round.
 */
export function basisComparison(syntax: Syntax, category: VatCategory): { roundSums: boolean; tolerance: 0 | 1 } {
  if (syntax === 'CII') return { roundSums: true, tolerance: category.perRate ? 0 : 1 };
  return { roundSums: false, tolerance: category.perRate ? 1 : 0 };
}
