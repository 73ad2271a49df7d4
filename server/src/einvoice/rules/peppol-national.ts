// Peppol's national rules, fatal ones: the Netherlands (NL-R) and Italy (IT-R) here, the others in
// their own files (Germany, the Nordic countries, Greece), all gathered in PEPPOL_NATIONAL_RULES.
// Each applies only when the seller (and for some the buyer) is in that country.

import type { Address, Invoice } from '../model/invoice-model.ts';
import { code, missing } from './facts.ts';
import { PEPPOL_GERMAN_RULES } from './peppol-national-de.ts';
import { PEPPOL_GREEK_RULES } from './peppol-national-gr.ts';
import { PEPPOL_NORDIC_RULES } from './peppol-national-nordic.ts';
import { sellerCountry, supplierCountry } from './peppol-parties.ts';
import { num } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const upper = (address: Address | undefined) => address?.countryCode?.value.trim().toUpperCase();
const dutchSeller = (i: Invoice) => sellerCountry(i) === 'NL';
const dutchBuyer = (i: Invoice) => dutchSeller(i) && upper(i.buyer?.address) === 'NL';
const kvkOrOin = (id: { value: string; scheme?: string } | undefined) => !!id && ['0106', '0190'].includes(id.scheme ?? '') && id.value.trim() !== '';
/** The address lacks street (line 1), city or post code; undefined when there is no address. */
const incomplete = (address: Address | undefined) => !!address && !(address.line1 && address.city && address.postCode) && address.path;
const CII_CREDIT_NOTES = ['81', '83', '381', '396', '532'];
const italian = (i: Invoice) => supplierCountry(i) === 'IT';

const NETHERLANDS: Rule[] = [
  rule('NL-R-001', 'A Dutch seller’s credit note must refer to the invoice it credits (BT-25).', (i) => {
    const credit = i.syntax === 'UBL' ? i.root === 'CreditNote' : CII_CREDIT_NOTES.includes(code(i.typeCode) ?? '');
    return dutchSeller(i) && credit && !i.precedingInvoices.some((preceding) => preceding.reference) && missing(i.path, 'BT-25');
  }),
  rule(
    'NL-R-002',
    'A Dutch seller’s address must give street (BT-35), city (BT-37) and post code (BT-38).',
    (i) => dutchSeller(i) && incomplete(i.seller?.address),
  ),
  rule('NL-R-003', "A Dutch seller's legal registration (BT-30) must be a KVK or OIN number (scheme 0106 or 0190).", (i) => {
    const registration = i.seller?.legalRegistration;
    return dutchSeller(i) && !!registration && !kvkOrOin(registration) && registration.path;
  }),
  rule(
    'NL-R-004',
    'Between Dutch parties, the buyer’s address must give street (BT-50), city (BT-52) and post code (BT-53).',
    (i) => dutchBuyer(i) && incomplete(i.buyer?.address),
  ),
  rule('NL-R-005', "Between Dutch parties, the buyer's legal registration (BT-47) must be a KVK or OIN number (scheme 0106 or 0190).", (i) => {
    const registration = i.buyer?.legalRegistration;
    return dutchBuyer(i) && !!registration && !kvkOrOin(registration) && registration.path;
  }),
  rule(
    'NL-R-006',
    'A Dutch seller’s Dutch tax representative must give street (BT-64), city (BT-66) and post code (BT-67).',
    (i) => dutchSeller(i) && upper(i.taxRepresentative?.address) === 'NL' && incomplete(i.taxRepresentative?.address),
  ),
  rule('NL-R-007', 'A Dutch seller must give payment instructions (BG-16) when the buyer is to pay.', (i) => {
    if (!dutchSeller(i) || !i.totals || i.paymentMeans.length > 0) return false;
    const payable = num(i.totals.payable);
    const credit = i.syntax === 'UBL' ? i.root === 'CreditNote' : code(i.typeCode) === '381';
    const buyerPays = payable === undefined || (credit ? payable < 0n : payable > 0n);
    return buyerPays && (i.totals.payable?.path ?? i.totals.path);
  }),
  eachRule(
    'NL-R-008',
    'Between Dutch parties, the payment means code (BT-81) must be 30, 48, 49, 57, 58 or 59.',
    (i) => (dutchBuyer(i) ? i.paymentMeans.filter((means) => !['30', '48', '49', '57', '58', '59'].includes(code(means.typeCode) ?? '')) : []),
    () => true,
  ),
  eachRule(
    'NL-R-009',
    'A Dutch seller using order line references (BT-132) must give the purchase order reference (BT-13).',
    (i) => (dutchSeller(i) && !i.purchaseOrderReference ? i.lines.filter((line) => line.orderLineReference) : []),
    (line) => line.orderLineReference!.path,
  ),
];

const ITALY: Rule[] = [
  rule(
    'IT-R-001',
    "An Italian seller's tax registration identifier (BT-32) must be 11 to 16 capital letters or digits.",
    (i) => italian(i) && !!i.seller?.taxRegistrationId && !/^[A-Z0-9]{11,16}$/.test(i.seller.taxRegistrationId.value.trim()) && i.seller.taxRegistrationId.path,
  ),
  ...(
    [
      ['IT-R-002', 'line1', "An Italian seller's address must give the street (BT-35)."],
      ['IT-R-003', 'city', "An Italian seller's address must give the city (BT-37)."],
      ['IT-R-004', 'postCode', "An Italian seller's address must give the post code (BT-38)."],
    ] as const
  ).map(([id, field, text]) =>
    rule(id, text, (i) => italian(i) && !!i.seller && !i.seller.address?.[field] && missing(i.seller.address?.path ?? i.seller.path, field)),
  ),
];

export const PEPPOL_NATIONAL_RULES: readonly Rule[] = [...NETHERLANDS, ...ITALY, ...PEPPOL_GERMAN_RULES, ...PEPPOL_NORDIC_RULES, ...PEPPOL_GREEK_RULES];
