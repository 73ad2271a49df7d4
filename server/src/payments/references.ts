// Payment references: the ISO 11649 creditor reference ("RF" + 2 check digits + up to 21 letters
// and digits, both codes take it) and the Swiss QR reference (27 digits, the last a modulo 10
// recursive check digit). Each is returned without spaces once its check digits hold.

import { hasValidMod97, qrReferenceCheckDigit } from './check-digits.ts';
import { PaymentDataError } from './errors.ts';

/** An ISO 11649 creditor reference, spaces dropped and upper-cased, after its check digits. */
export function checkCreditorReference(raw: string, field: string): string {
  const reference = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(reference))
    throw new PaymentDataError(field, `"${raw}" is not a creditor reference (ISO 11649): RF, two check digits, then 1-21 letters and digits.`);
  if (!hasValidMod97(reference))
    throw new PaymentDataError(field, `the creditor reference's check digits (${reference.slice(2, 4)}) do not match (MOD 97): a typo?`);
  return reference;
}

/** A Swiss QR reference, spaces dropped, after its length and check digit. */
export function checkQrReference(raw: string, field: string): string {
  const reference = raw.replace(/\s+/g, '');
  if (!/^\d{27}$/.test(reference)) throw new PaymentDataError(field, `"${raw}" is not a QR reference: 27 digits.`);
  const expected = qrReferenceCheckDigit(reference.slice(0, 26));
  if (reference[26] !== expected)
    throw new PaymentDataError(field, `the QR reference's check digit is ${reference[26]}, but its first 26 digits need ${expected} (modulo 10 recursive).`);
  return reference;
}

/** A QR reference as printed: groups of five from the right. */
export function groupedQrReference(reference: string): string {
  return reference.replace(/\B(?=(\d{5})+(?!\d))/g, ' ');
}

/** A creditor reference as printed: groups of four from the left. */
export function groupedCreditorReference(reference: string): string {
  return reference.replace(/(.{4})(?=.)/g, '$1 ');
}
