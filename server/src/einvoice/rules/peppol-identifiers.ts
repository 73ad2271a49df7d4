// Peppol's identifier checks (PEPPOL-COMMON-R040..R050): an identifier written with a known ICD
// scheme, anywhere in the invoice (electronic address, party, legal or tax id), must have that
// scheme's form and check digits. The Italian ones (R044..R047) are warnings in 3.0.19.

import type { Node } from '../xml/located-node.ts';
import type { Rule } from './rule.ts';

const digitsOf = (value: string) => [...value].map(Number);

/** GS1 check digit: weights 3 and 1 from the right, the total a multiple of 10. */
export function glnValid(value: string): boolean {
  if (!/^[0-9]+$/.test(value)) return false;
  const digits = digitsOf(value);
  const check = digits.pop()!;
  const total = digits.reverse().reduce((sum, digit, n) => sum + digit * (n % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check;
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 3 2 7 6 5 4 3 2, not all zero. */
export function norwegianOrgNumberValid(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value) || Number(value) === 0) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const total = weights.reduce((sum, weight, n) => sum + weight * Number(value[n]), 0);
  return (11 - (total % 11)) % 11 === Number(value[8]);
}

/** Luhn check of the 10-digit Swedish organisation number (Peppol's checkSEOrgnr). */
export function swedishOrgNumberValid(value: string): boolean {
  if (!/^[0-9]{10,}$/.test(value)) return false;
  const total = digitsOf(value.slice(0, 10)).reduce((sum, digit, n) => {
    const weighted = n % 2 === 0 ? digit * 2 : digit;
    return sum + (weighted > 9 ? weighted - 9 : weighted);
  }, 0);
  return total % 10 === 0;
}

/** Danish CVR: 8 digits, or DK and 8 digits, exactly as written (no trimming). */
const danishCvrValid = (raw: string) => /^(DK)?[0-9]{8}$/.test(raw);

/** Belgian enterprise number: 10 digits, the last two 97 less the first eight mod 97. */
function belgianEnterpriseNumberValid(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  return 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** Australian Business Number: 11 digits, the first less one, weighted 10 1 3 5 ... 19, mod 89 = 0. */
function abnValid(value: string): boolean {
  if (value.length < 11) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const total = weights.reduce((sum, weight, n) => sum + weight * (value.charCodeAt(n) - 48 - (n === 0 ? 1 : 0)), 0);
  return total % 89 === 0;
}

/** Identifiers written with a given scheme anywhere in the XML (endpoint, party, legal and tax ids). */
export function identifiersWithScheme(root: Node | undefined, syntax: string, scheme: string): Node[] {
  if (!root) return [];
  const names = syntax === 'CII' ? ['ram:URIID', 'ram:ID', 'ram:GlobalID'] : ['cbc:EndpointID', 'cbc:ID', 'cbc:CompanyID'];
  return names
    .flatMap((name) => root.descendants(name))
    .filter(
      (node) => node.attr('schemeID') === scheme && (syntax === 'CII' || node.element.localName !== 'ID' || node.path.includes('cac:PartyIdentification')),
    );
}

/** `valid` gets the trimmed text and the text as written (CVR is checked untrimmed), and the syntax. */
function schemeRule(id: string, text: string, scheme: string, valid: (value: string, raw: string, syntax: string) => boolean): Rule {
  return {
    id,
    flag: 'fatal',
    text,
    *check({ invoice, root }) {
      for (const node of identifiersWithScheme(root, invoice.syntax, scheme)) if (!valid(node.text.trim(), node.text, invoice.syntax)) yield node.path;
    },
  };
}

export const PEPPOL_IDENTIFIER_RULES: readonly Rule[] = [
  schemeRule('PEPPOL-COMMON-R040', 'A GLN (scheme 0088) must have a valid GS1 check digit.', '0088', glnValid),
  schemeRule('PEPPOL-COMMON-R041', 'A Norwegian organisation number (scheme 0192) must be 9 digits with a valid check digit.', '0192', norwegianOrgNumberValid),
  schemeRule('PEPPOL-COMMON-R042', 'A Danish CVR number (scheme 0184) must be 8 digits, optionally after DK.', '0184', (_, raw) => danishCvrValid(raw)),
  schemeRule(
    'PEPPOL-COMMON-R043',
    'A Belgian enterprise number (scheme 0208) must be 10 digits with valid mod 97 check digits.',
    '0208',
    belgianEnterpriseNumberValid,
  ),
  schemeRule(
    'PEPPOL-COMMON-R049',
    'A Swedish organisation number (scheme 0007) must be 10 digits with a valid check digit.',
    '0007',
    (value) => value.length === 10 && swedishOrgNumberValid(value),
  ),
  // Peppol's UBL rules ask for 11 digits; its CII rules only run the checksum.
  schemeRule(
    'PEPPOL-COMMON-R050',
    'An Australian Business Number (scheme 0151) must be 11 digits with a valid checksum.',
    '0151',
    (value, _, syntax) => (syntax === 'CII' || /^[0-9]{11}$/.test(value)) && abnValid(value),
  ),
];
