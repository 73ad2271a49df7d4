// The Swiss QR-bill's payload (Swiss Payments Code, Implementation Guidelines v2.3): 31 lines in a
// fixed order (SPC, 0200, 1, the account, the creditor's structured address, 7 empty lines kept for
// the ultimate creditor, amount, currency, the debtor, the reference, the message, EPD) and the
// billing information after EPD when there is one. Every value is checked first, named by its attribute.

import { centsText, parseAmount } from './amount.ts';
import { PaymentDataError } from './errors.ts';
import { checkIban, isQrIban } from './iban.ts';
import { checkCreditorReference, checkQrReference } from './references.ts';

/** A structured address (type S, the only one v2.3 allows). */
export interface SwissAddress {
  name: string;
  street?: string;
  building?: string;
  postcode: string;
  town: string;
  country: string;
}

/** A QR-bill's data once checked: what the payload and the drawing are made from. */
export interface SwissQrBill {
  account: string;
  creditor: SwissAddress;
  /** In cents; undefined leaves the amount for the payer to fill in. */
  amountCents?: number;
  currency: 'CHF' | 'EUR';
  debtor?: SwissAddress;
  referenceType: 'QRR' | 'SCOR' | 'NON';
  reference?: string;
  message?: string;
  billing?: string;
}

/**
 * Characters the guidelines allow (v2.3: Basic Latin, Latin-1 Supplement, Latin Extended-A,
 * Ș ș Ț ț and €), as ranges of code points; line breaks are never allowed inside a field.
 */
const ALLOWED = /^[\u0020-\u007E\u00A0-\u017F\u0218-\u021B\u20AC]*$/;

/** The QR-bill's data from an element's attributes (all text), checked: `creditor-name`, `debtor-town`, ... */
export function swissQrBillFrom(attributes: Record<string, string>): SwissQrBill {
  const value = (field: string, maxLength: number) => checkedText(attributes, field, maxLength);
  const account = checkIban(attributes.account ?? '', 'account');
  if (!/^(CH|LI)/.test(account))
    throw new PaymentDataError('account', `a QR-bill pays into a Swiss or Liechtenstein account (CH or LI), not ${account.slice(0, 2)}.`);
  const creditor = address(attributes, 'creditor');
  if (creditor === undefined) throw new PaymentDataError('creditor-name', 'the creditor’s name and address are required.');
  const currency = (attributes.currency?.trim() || 'CHF').toUpperCase();
  if (currency !== 'CHF' && currency !== 'EUR') throw new PaymentDataError('currency', `"${attributes.currency}" is not a QR-bill currency: CHF or EUR.`);
  const amount = value('amount', 12);
  const rawReference = value('reference', 35);
  const reference =
    rawReference === undefined
      ? undefined
      : /^RF/i.test(rawReference)
        ? checkCreditorReference(rawReference, 'reference')
        : checkQrReference(rawReference, 'reference');
  const referenceType = reference === undefined ? 'NON' : reference.startsWith('RF') ? 'SCOR' : 'QRR';
  if (isQrIban(account) && referenceType !== 'QRR')
    throw new PaymentDataError('reference', `${account} is a QR-IBAN (institution id 30000-31999): it needs a QR reference of 27 digits.`);
  if (!isQrIban(account) && referenceType === 'QRR')
    throw new PaymentDataError(
      'reference',
      `a QR reference needs a QR-IBAN (institution id 30000-31999); ${account} is an ordinary IBAN: use an RF creditor reference or none.`,
    );
  const message = value('message', 140);
  const billing = value('billing', 140);
  if (billing !== undefined && !billing.startsWith('//'))
    throw new PaymentDataError('billing', 'billing information starts with "//" and its syntax’s prefix, as //S1/10/10201409.');
  if ((message?.length ?? 0) + (billing?.length ?? 0) > 140)
    throw new PaymentDataError('message', 'the message and the billing information together may have at most 140 characters.');
  return {
    account,
    creditor,
    amountCents: amount === undefined ? undefined : parseAmount(amount, 'amount'),
    currency,
    debtor: address(attributes, 'debtor'),
    referenceType,
    reference,
    message,
    billing,
  };
}

/** The Swiss Payments Code payload: LF between lines, none after the last. */
export function swissQrPayload(bill: SwissQrBill): string {
  const lines = [
    'SPC',
    '0200',
    '1',
    bill.account,
    ...addressLines(bill.creditor),
    ...Array(7).fill(''), // the ultimate creditor: reserved for future use, left empty
    bill.amountCents === undefined ? '' : centsText(bill.amountCents),
    bill.currency,
    ...(bill.debtor ? addressLines(bill.debtor) : Array(7).fill('')),
    bill.referenceType,
    bill.reference ?? '',
    bill.message ?? '',
    'EPD',
  ];
  if (bill.billing !== undefined) lines.push(bill.billing);
  return lines.join('\n');
}

function addressLines(address: SwissAddress): string[] {
  return ['S', address.name, address.street ?? '', address.building ?? '', address.postcode, address.town, address.country];
}

/** `<party>-name`, `-street`, `-building`, `-postcode`, `-town`, `-country`; undefined when none is given. */
function address(attributes: Record<string, string>, party: 'creditor' | 'debtor'): SwissAddress | undefined {
  const value = (field: string, maxLength: number) => checkedText(attributes, `${party}-${field}`, maxLength);
  const fields = ['name', 'street', 'building', 'postcode', 'town', 'country'];
  if (fields.every((field) => value(field, 70) === undefined)) return undefined;
  const required = (field: string, maxLength: number) => {
    const text = value(field, maxLength);
    if (text === undefined) throw new PaymentDataError(`${party}-${field}`, `the ${party}’s ${field} is required in a structured address.`);
    return text;
  };
  const country = required('country', 2).toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new PaymentDataError(`${party}-country`, `"${country}" is not a country code: two letters (ISO 3166-1), as CH.`);
  return {
    name: required('name', 70),
    street: value('street', 70),
    building: value('building', 16),
    postcode: required('postcode', 16),
    town: required('town', 35),
    country,
  };
}

/** A trimmed attribute, undefined when empty; refused when too long or holding a character the guidelines do not allow. */
function checkedText(attributes: Record<string, string>, field: string, maxLength: number): string | undefined {
  const value = attributes[field]?.trim();
  if (!value) return undefined;
  if (!ALLOWED.test(value)) {
    const bad = [...value].find((char) => !ALLOWED.test(char))!;
    const shown = /[\r\n]/.test(bad) ? 'a line break' : `"${bad}" (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    throw new PaymentDataError(field, `${shown} is not in the character set of the QR-bill (Latin letters, digits and punctuation).`);
  }
  if (value.length > maxLength) throw new PaymentDataError(field, `${value.length} characters; the QR-bill allows at most ${maxLength}.`);
  return value;
}
