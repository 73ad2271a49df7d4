// The amount both codes carry: a positive decimal with at most two places, 0.01 to 999,999,999.99,
// given as text (an attribute, a template's value). Kept as whole cents so nothing is rounded.

import { PaymentDataError } from './errors.ts';

export const MAX_CENTS = 99_999_999_999;

/** The amount in cents, after its shape and range are checked. */
export function parseAmount(raw: string, field: string): number {
  const text = raw.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new PaymentDataError(field, `"${raw}" is not an amount: digits with a decimal point and at most 2 decimals, as 1949.75.`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents < 1) throw new PaymentDataError(field, 'the amount must be at least 0.01.');
  if (cents > MAX_CENTS) throw new PaymentDataError(field, `${text} is above the largest amount a payment code carries, 999999999.99.`);
  return cents;
}

/** Cents as "1949.75". */
export function centsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Cents as people read them on a QR-bill: "1 949.75", a space between thousands. */
export function groupedAmount(cents: number): string {
  return centsText(cents).replace(/\B(?=(\d{3})+(?!\d))(?=\d*\.)/g, ' ');
}
