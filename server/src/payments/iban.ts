// IBANs as payment codes take them: spaces dropped, letters upper-cased, then the country's length
// (the SWIFT IBAN registry) and the MOD 97-10 check digits. Also the Swiss QR-IBAN test (an
// institution id 30000-31999), which decides the reference a QR-bill may carry.

import { hasValidMod97 } from './check-digits.ts';
import { PaymentDataError } from './errors.ts';

/** The IBAN length of each country in the SWIFT IBAN registry. */
// biome-ignore format: a table reads best as a block
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28,
  PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/** The IBAN without spaces, upper-cased, after its shape, country length and check digits are checked. */
export function checkIban(raw: string, field: string): string {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (iban === '') throw new PaymentDataError(field, 'an IBAN is required.');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    throw new PaymentDataError(field, `"${raw}" is not an IBAN: two letters of a country, two check digits, then letters and digits.`);
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  if (length === undefined) throw new PaymentDataError(field, `${country} is not a country that has IBANs.`);
  if (iban.length !== length) throw new PaymentDataError(field, `an IBAN of ${country} has ${length} characters, not ${iban.length}.`);
  if (!hasValidMod97(iban)) throw new PaymentDataError(field, `the IBAN's check digits (${iban.slice(2, 4)}) do not match the rest (MOD 97): a typo?`);
  return iban;
}

/** A Swiss or Liechtenstein QR-IBAN: its institution id (characters 5-9) is 30000-31999. */
export function isQrIban(iban: string): boolean {
  if (!/^(CH|LI)/.test(iban)) return false;
  const iid = Number(iban.slice(4, 9));
  return iid >= 30000 && iid <= 31999;
}

/** An IBAN in groups of four, as printed for people. */
export function groupedIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
