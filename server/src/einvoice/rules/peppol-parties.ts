// What Peppol's national rules ask first: which country the seller and buyer are in (Peppol's
// "supplier country" is the VAT id's prefix before the postal country), and XPath's number() for
// the rules that test "is it numeric".

import type { Invoice, Text } from '../model/invoice-model.ts';

/** The seller's postal country, trimmed and upper-cased. */
export const sellerCountry = (i: Invoice) => i.seller?.address?.countryCode?.value.trim().toUpperCase();

const vatPrefix = (vatId: { value: string } | undefined) => vatId?.value.slice(0, 2).trim().toUpperCase() || undefined;

/**
 * A VAT identifier as Peppol's rules see it. Its CII rules look for scheme VAT where CII writes VA,
 * so in CII they never find one and fall back on the postal country; we do the same.
 */
export const peppolVatId = (i: Invoice, vatId: Text | undefined) => (i.syntax === 'UBL' ? vatId : undefined);

/** Peppol's supplier country: the seller's VAT id prefix, else its tax representative's, else the postal country. */
export const supplierCountry = (i: Invoice) =>
  vatPrefix(peppolVatId(i, i.seller?.vatId)) ?? vatPrefix(peppolVatId(i, i.taxRepresentative?.vatId)) ?? sellerCountry(i);

/** Peppol's customer country: the buyer's VAT id prefix, else its postal country. */
export const customerCountry = (i: Invoice) => vatPrefix(peppolVatId(i, i.buyer?.vatId)) ?? i.buyer?.address?.countryCode?.value.trim().toUpperCase();

/** XPath number(): the value as xs:double, undefined where XPath gives NaN. */
export function xpathNumber(text: string | undefined): number | undefined {
  const value = text?.trim() ?? '';
  if (value === 'INF' || value === '+INF') return Number.POSITIVE_INFINITY;
  if (value === '-INF') return Number.NEGATIVE_INFINITY;
  return /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(value) ? Number(value) : undefined;
}
