// The XRechnung CIUS rules (BR-DE-*, BR-TMP-3; KoSIT XRechnung Schematron 2.5.0, XRechnung 3.0)
// in our words, over the model. The extension (BR-DEX-*) and CVD rules are not written yet.

import { dec } from '../model/decimal.ts';
import type { Address, Invoice, PaymentMeans } from '../model/invoice-model.ts';
import { code, filled, missing } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const CATEGORIES_NEEDING_TAX_ID = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M']);
const XRECHNUNG_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const XRECHNUNG_IDS = new Set([
  XRECHNUNG_ID,
  `${XRECHNUNG_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`,
  `${XRECHNUNG_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`,
]);
const SKONTO = /^#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
const TELEPHONE = /([0-9].*){3,}/;
const EMAIL = /^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$/;

const meansWith = (codes: string[]) => (invoice: Invoice) => invoice.paymentMeans.filter((means) => codes.includes(code(means.typeCode) ?? ''));
const hasDirectDebit = (means: PaymentMeans) => !!means.directDebit;
const addressRule = (id: string, term: string, pick: (i: Invoice) => Address | undefined, field: 'city' | 'postCode') =>
  rule(id, `${term} must be given.`, (i) => {
    const address = pick(i);
    return !!address && !filled(address[field]) && missing(address.path, term);
  });

/** The ISO 13616 check of an IBAN: letters to numbers, the country and check digits moved to the end, mod 97 = 1. */
function ibanValid(iban: string | undefined): boolean {
  const compact = (iban ?? '').replace(/\s/g, '');
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(compact)) return false;
  const digits = [...`${compact.slice(4)}${compact.slice(0, 4)}`.toUpperCase()].map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
  return BigInt(digits) % 97n === 1n;
}

/** BR-DE-18: every payment terms line starting with # is a well-formed Skonto line, and the text ends with a line break after the last one. */
function skontoOk(terms: string | undefined): boolean {
  if (!terms) return true;
  const tagged = terms.split(/\r?\n/).filter((line) => line.trim().startsWith('#'));
  const tail = terms.split(/#.+#/).at(-1) ?? '';
  return tagged.every((line) => SKONTO.test(line.trim()) && /^\s*\n/.test(tail));
}

export const XRECHNUNG_RULES: readonly Rule[] = [
  rule('BR-DE-1', 'An XRechnung must give payment instructions (BG-16).', (i) => i.paymentMeans.length === 0 && missing(i.path, 'BG-16')),
  rule('BR-DE-2', "An XRechnung must give the seller's contact (BG-6).", (i) => !!i.seller && !i.seller.contact && missing(i.seller.path, 'BG-6')),
  addressRule('BR-DE-3', "The seller's city (BT-37)", (i) => i.seller?.address, 'city'),
  addressRule('BR-DE-4', "The seller's post code (BT-38)", (i) => i.seller?.address, 'postCode'),
  rule(
    'BR-DE-5',
    "The seller's contact point (BT-41) must be given.",
    (i) => !!i.seller?.contact && !filled(i.seller.contact.name) && missing(i.seller.contact.path, 'BT-41'),
  ),
  rule(
    'BR-DE-6',
    "The seller's contact telephone number (BT-42) must be given.",
    (i) => !!i.seller?.contact && !filled(i.seller.contact.phone) && missing(i.seller.contact.path, 'BT-42'),
  ),
  rule(
    'BR-DE-7',
    "The seller's contact e-mail address (BT-43) must be given.",
    (i) => !!i.seller?.contact && !filled(i.seller.contact.email) && missing(i.seller.contact.path, 'BT-43'),
  ),
  addressRule('BR-DE-8', "The buyer's city (BT-52)", (i) => i.buyer?.address, 'city'),
  addressRule('BR-DE-9', "The buyer's post code (BT-53)", (i) => i.buyer?.address, 'postCode'),
  addressRule('BR-DE-10', 'The deliver-to city (BT-77)', (i) => i.delivery?.address, 'city'),
  addressRule('BR-DE-11', 'The deliver-to post code (BT-78)', (i) => i.delivery?.address, 'postCode'),
  eachRule(
    'BR-DE-14',
    'Each VAT breakdown must give its VAT rate (BT-119).',
    (i) => i.vatBreakdown,
    (entry) => !filled(entry.rate),
  ),
  rule('BR-DE-15', 'An XRechnung must carry the buyer reference (BT-10, the Leitweg-ID).', (i) => !filled(i.buyerReference) && missing(i.path, 'BT-10')),
  rule(
    'BR-DE-16',
    'With VAT categories S, Z, E, AE, K, G, L or M, the seller VAT identifier (BT-31), tax number (BT-32) or tax representative (BG-11) must be given.',
    (i) => {
      const used = [...i.lines, ...i.allowancesCharges].some((item) => CATEGORIES_NEEDING_TAX_ID.has(code(item.vatCategory) ?? ''));
      return used && !i.seller?.vatId && !i.seller?.taxRegistrationId && !i.taxRepresentative && missing(i.seller?.path ?? i.path, 'BT-31/BT-32/BG-11');
    },
  ),
  rule(
    'BR-DE-17',
    'The invoice type code (BT-3) should be 326, 380, 384, 389, 381, 875, 876 or 877.',
    (i) => !['326', '380', '384', '389', '381', '875', '876', '877'].includes(code(i.typeCode) ?? '') && (i.typeCode?.path ?? i.path),
    'warning',
  ),
  rule(
    'BR-DE-18',
    'Skonto lines in the payment terms (BT-20) must follow the #SKONTO#TAGE=..#PROZENT=..# form and end with a line break.',
    (i) => !skontoOk(i.paymentTerms?.value) && i.paymentTerms!.path,
  ),
  eachRule(
    'BR-DE-19',
    'The IBAN of a SEPA credit transfer (BT-84) should be a valid IBAN.',
    meansWith(['58']),
    (means) => !ibanValid(means.creditTransfers[0]?.accountId?.value),
    'warning',
  ),
  eachRule(
    'BR-DE-20',
    'The debited IBAN of a SEPA direct debit (BT-91) should be a valid IBAN.',
    meansWith(['59']),
    (means) => !ibanValid(means.directDebit?.debitedAccount?.value),
    'warning',
  ),
  rule(
    'BR-DE-21',
    'The specification identifier (BT-24) should name XRechnung 3.0.',
    (i) => !XRECHNUNG_IDS.has(code(i.specification) ?? '') && (i.specification?.path ?? i.path),
    'warning',
  ),
  rule('BR-DE-22', 'Attached documents (BG-24) must have distinct file names.', (i) => {
    const names = i.supportingDocuments.flatMap((doc) => (doc.attachment?.filename ? [doc.attachment] : []));
    return names.find((doc, n) => names.findIndex((other) => other.filename === doc.filename) !== n)?.path;
  }),
  eachRule(
    'BR-DE-23-a',
    'A credit transfer (30, 58) must give the credit transfer account (BG-17).',
    meansWith(['30', '58']),
    (means) => means.creditTransfers.length === 0,
  ),
  eachRule(
    'BR-DE-23-b',
    'A credit transfer (30, 58) must not carry card (BG-18) or direct debit (BG-19) details.',
    meansWith(['30', '58']),
    (means) => !!means.card || hasDirectDebit(means),
  ),
  eachRule('BR-DE-24-a', 'A card payment (48, 54, 55) must give the card (BG-18).', meansWith(['48', '54', '55']), (means) => !means.card),
  eachRule(
    'BR-DE-24-b',
    'A card payment (48, 54, 55) must not carry credit transfer (BG-17) or direct debit (BG-19) details.',
    meansWith(['48', '54', '55']),
    (means) => means.creditTransfers.length > 0 || hasDirectDebit(means),
  ),
  eachRule('BR-DE-25-a', 'A SEPA direct debit (59) must give the direct debit (BG-19).', meansWith(['59']), (means) => !hasDirectDebit(means)),
  eachRule(
    'BR-DE-25-b',
    'A SEPA direct debit (59) must not carry credit transfer (BG-17) or card (BG-18) details.',
    meansWith(['59']),
    (means) => means.creditTransfers.length > 0 || !!means.card,
  ),
  rule(
    'BR-DE-26',
    'A corrected invoice (384) should refer to the invoice it corrects (BG-3).',
    (i) => code(i.typeCode) === '384' && i.precedingInvoices.length === 0 && i.typeCode!.path,
    'warning',
  ),
  rule(
    'BR-DE-27',
    "The seller's contact telephone number (BT-42) should have at least 3 digits.",
    (i) => !!i.seller?.contact && !TELEPHONE.test(i.seller.contact.phone?.value ?? '') && i.seller.contact.path,
    'warning',
  ),
  rule(
    'BR-DE-28',
    "The seller's contact e-mail address (BT-43) should be an e-mail address.",
    (i) => !!i.seller?.contact && !EMAIL.test(i.seller.contact.email?.value.trim() ?? '') && i.seller.contact.path,
    'warning',
  ),
  eachRule(
    'BR-DE-30',
    'A direct debit (BG-19) must give the bank assigned creditor identifier (BT-90).',
    (i) => i.paymentMeans.filter(hasDirectDebit),
    (means) => !means.directDebit?.creditorId,
  ),
  eachRule(
    'BR-DE-31',
    'A direct debit (BG-19) must give the debited account identifier (BT-91).',
    (i) => i.paymentMeans.filter(hasDirectDebit),
    (means) => !means.directDebit?.debitedAccount,
  ),
  eachRule(
    'BR-TMP-3',
    "A line's gross and net price base quantities must agree when both are given.",
    (i) => i.lines,
    (line) => {
      const gross = line.grossPriceBaseQuantity;
      const net = line.baseQuantity;
      if (!gross || !net) return false;
      const units = !gross.unitCode || !net.unitCode || gross.unitCode === net.unitCode;
      return (dec(gross.value) !== dec(net.value) || !units) && gross.path;
    },
  ),
];
