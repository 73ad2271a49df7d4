// Peppol's national rules the corpus meets (Germany DE-R, Denmark DK-R, the Netherlands NL-R,
// Norway NO-R) and its identifier checks (PEPPOL-COMMON-R040 GLN, R049 Swedish organisation
// number). Each applies only when the seller (and buyer) are in that country.

import type { Invoice } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { code, filled, missing } from './facts.ts';
import { bothIn } from './peppol.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const sellerCountry = (i: Invoice) => i.seller?.address?.countryCode?.value.trim().toUpperCase();
/** Peppol's "supplier country": the seller's VAT id prefix, else its tax representative's, else the postal country. */
const supplierCountry = (i: Invoice) => (i.seller?.vatId?.value ?? i.taxRepresentative?.vatId?.value)?.trim().slice(0, 2).toUpperCase() ?? sellerCountry(i);
const meansNotIn = (codes: string) => (i: Invoice) => i.paymentMeans.filter((means) => !codes.split(' ').includes(code(means.typeCode) ?? ''));

/** GS1 check digit: weights 3 and 1 from the right, the total a multiple of 10. */
function glnValid(value: string): boolean {
  if (!/^[0-9]+$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const total = digits.reverse().reduce((sum, digit, n) => sum + digit * (n % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check;
}

/** Luhn check of a 10-digit Swedish organisation number. */
function swedishOrgNumberValid(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const total = [...value].map(Number).reduce((sum, digit, n) => {
    const weighted = n % 2 === 0 ? digit * 2 : digit;
    return sum + (weighted > 9 ? weighted - 9 : weighted);
  }, 0);
  return total % 10 === 0;
}

/** Norwegian organisation number: mod 11 with weights 3 2 7 6 5 4 3 2. */
function norwegianOrgNumberValid(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const total = weights.reduce((sum, weight, n) => sum + weight * Number(value[n]), 0);
  const check = 11 - (total % 11);
  return (check === 11 ? 0 : check) === Number(value[8]);
}

/** Identifiers written with a given scheme anywhere in the XML (endpoint, party, legal and tax ids). */
function identifiersWithScheme(root: Node | undefined, syntax: string, scheme: string): Node[] {
  if (!root) return [];
  const names = syntax === 'CII' ? ['ram:URIID', 'ram:ID', 'ram:GlobalID'] : ['cbc:EndpointID', 'cbc:ID', 'cbc:CompanyID'];
  return names
    .flatMap((name) => root.descendants(name))
    .filter(
      (node) => node.attr('schemeID') === scheme && (syntax === 'CII' || node.element.localName !== 'ID' || node.path.includes('cac:PartyIdentification')),
    );
}

function checksumRule(id: string, text: string, scheme: string, valid: (value: string) => boolean): Rule {
  return {
    id,
    flag: 'fatal',
    text,
    *check({ invoice, root }) {
      for (const node of identifiersWithScheme(root, invoice.syntax, scheme)) if (!valid(node.text.trim())) yield node.path;
    },
  };
}

export const PEPPOL_NATIONAL_RULES: readonly Rule[] = [
  checksumRule('PEPPOL-COMMON-R040', 'A GLN (scheme 0088) must have a valid GS1 check digit.', '0088', glnValid),
  checksumRule('PEPPOL-COMMON-R049', 'A Swedish organisation number (scheme 0007) must be 10 digits with a valid check digit.', '0007', swedishOrgNumberValid),
  rule(
    'DE-R-015',
    'Between German parties, the buyer reference (BT-10) must be given.',
    (i) => i.syntax === 'UBL' && bothIn(i, 'DE') && !filled(i.buyerReference) && missing(i.path, 'BT-10'),
  ),
  rule(
    'DE-R-016',
    'Between German parties with a VAT category S, Z, E, AE, K, G, L or M, the seller VAT id, tax number or tax representative must be given.',
    (i) => {
      if (i.syntax !== 'UBL' || !bothIn(i, 'DE')) return false;
      const used = [...i.lines, ...i.allowancesCharges].some((item) => ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'].includes(code(item.vatCategory) ?? ''));
      return used && !i.seller?.vatId && !i.seller?.taxRegistrationId && !i.taxRepresentative && missing(i.seller?.path ?? i.path, 'BT-31/BT-32/BG-11');
    },
  ),
  eachRule(
    'DE-R-023-1',
    'Between German parties, a credit transfer (30, 58) must give the account (BG-17).',
    (i) => (i.syntax === 'UBL' && bothIn(i, 'DE') ? i.paymentMeans.filter((means) => ['30', '58'].includes(code(means.typeCode) ?? '')) : []),
    (means) => means.creditTransfers.length === 0,
  ),
  rule(
    'DK-R-002',
    'A Danish seller must give its legal registration identifier (BT-30).',
    (i) => sellerCountry(i) === 'DK' && !filled(i.seller?.legalRegistration) && missing(i.seller?.path ?? i.path, 'BT-30'),
  ),
  eachRule(
    'DK-R-005',
    'Between Danish parties, the payment means code (BT-81) must be one of 1 10 31 42 48 49 50 58 59 93 97.',
    (i) => (bothIn(i, 'DK') && (i.syntax === 'CII' || i.root === 'Invoice') ? meansNotIn('1 10 31 42 48 49 50 58 59 93 97')(i) : []),
    () => true,
  ),
  rule(
    'DK-R-014',
    "A Danish seller's legal registration (BT-30) must use scheme 0184.",
    (i) =>
      sellerCountry(i) === 'DK' && !!i.seller?.legalRegistration && i.seller.legalRegistration.scheme?.trim() !== '0184' && i.seller.legalRegistration.path,
  ),
  rule('NL-R-003', "A Dutch seller's legal registration (BT-30) must use scheme 0106 or 0190.", (i) => {
    const registration = i.seller?.legalRegistration;
    return sellerCountry(i) === 'NL' && !!registration && (!['0106', '0190'].includes(registration.scheme ?? '') || !filled(registration)) && registration.path;
  }),
  eachRule(
    'NL-R-008',
    'Between Dutch parties, the payment means code (BT-81) must be 30, 48, 49, 57, 58 or 59.',
    (i) => (bothIn(i, 'NL') ? meansNotIn('30 48 49 57 58 59')(i) : []),
    () => true,
  ),
  rule('NO-R-001', "A Norwegian seller's VAT identifier (BT-31) must be NO, a valid organisation number and MVA.", (i) => {
    const vat = i.seller?.vatId?.value.trim() ?? '';
    // Peppol's CII variant looks for a VAT scheme CII never writes, so only UBL is checked.
    if (i.syntax !== 'UBL' || supplierCountry(i) !== 'NO' || !vat.toUpperCase().startsWith('NO')) return false;
    return !(/^NO[0-9]{9}MVA$/.test(vat) && norwegianOrgNumberValid(vat.slice(2, 11))) && i.seller!.vatId!.path;
  }),
];
