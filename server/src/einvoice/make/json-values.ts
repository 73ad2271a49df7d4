// The value shapes of the JSON invoice that POST /v1/einvoice makes XML from: amounts, quantities
// and rates as numbers or decimal strings, kept as decimal strings (never floats) for decimal.ts;
// dates, codes and texts. Shared by the parts (json-parts.ts) and the whole (invoice-json.ts).

import { z } from 'zod';
import { dec } from '../model/decimal.ts';

export const text = (max: number) => z.string().min(1).max(max);
export const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' });
export const country = z.string().regex(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code such as "DE"' });
export const code = (max: number) => z.string().regex(new RegExp(`^[A-Za-z0-9:._-]{1,${max}}$`), { message: 'must be a code (letters, digits, : . _ -)' });

const DECIMAL = /^-?\d{1,13}(\.\d{1,6})?$/;

/**
 * A decimal as a number or a string ("1109.70"), kept as a decimal string: a number is taken as
 * JavaScript writes it (0.1 is "0.1"), so no binary rounding enters a sum.
 */
export const decimal = (what: string, places: number) =>
  z
    .union([z.number().finite(), z.string()])
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine((value) => DECIMAL.test(value) && dec(value) !== undefined, { message: `must be ${what}: a number or a decimal string such as "1109.70"` })
    .refine((value) => !value.includes('.') || value.length - value.indexOf('.') - 1 <= places, {
      message: `must have at most ${places} decimals`,
    });

/** Amounts in the invoice currency: at most 2 decimals, as EN 16931 writes them (BR-DEC). */
export const amount = decimal('an amount', 2);
/** Unit prices may carry more decimals than amounts (BT-146 has no BR-DEC rule). */
export const price = decimal('a price', 6);
export const quantity = decimal('a quantity', 6);
export const rate = decimal('a percentage', 2).refine((value) => !value.startsWith('-'), { message: 'must not be negative' });

export const identifier = z.strictObject({
  id: text(200).describe('The identifier.'),
  scheme: code(10)
    .optional()
    .describe('Its scheme: an ISO 6523 ICD (0088 GLN, 0204 Leitweg-ID...) or, for an electronic address, a CEF EAS code (EM e-mail, 9930 German VAT...).'),
});
