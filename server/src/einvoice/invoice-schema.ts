// The invoice as JSON: the EN 16931 core (seller, buyer, lines, VAT breakdown, totals, payment
// terms), from which cii-xml.ts writes the CII XML and a template draws the readable invoice, so
// the two come from one object. Amounts are numbers in the invoice currency; the totals the
// caller states are checked against the lines (invoice-totals.ts), never silently replaced.

import { z } from 'zod';

const text = (max: number) => z.string().min(1).max(max);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' });
// Amounts as numbers, or as decimal strings ("1109.70") so a template prints them as the invoice shows them.
const amount = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,13}(\.\d{1,4})?$/, { message: 'must be a number or a decimal string such as "1109.70"' })
      .transform(Number),
  ])
  .pipe(z.number().finite().min(-1e12).max(1e12));
const country = z.string().regex(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code such as "DE"' });

const addressSchema = z.strictObject({
  line1: text(200).optional(),
  line2: text(200).optional(),
  postcode: text(20).optional(),
  city: text(100).optional(),
  country_code: country.describe('BT-40 / BT-55.'),
});

const partySchema = z.strictObject({
  name: text(200).describe('BT-27 / BT-44.'),
  vat_id: text(30).optional().describe('VAT identifier (BT-31 / BT-48), such as DE123456789.'),
  tax_number: text(30).optional().describe('Seller’s local tax number (BT-32).'),
  legal_id: text(50).optional().describe('Legal registration id (BT-30 / BT-47).'),
  email: z.email().max(200).optional().describe('Electronic address (BT-34 / BT-49), written with scheme EM.'),
  contact: z
    .strictObject({ name: text(100).optional(), phone: text(50).optional(), email: z.email().max(200).optional() })
    .optional()
    .describe('Contact point (BT-41..43 / BT-56..58).'),
  address: addressSchema,
});

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;

const lineSchema = z.strictObject({
  id: text(50).optional().describe('BT-126. Default: the line’s position, from 1.'),
  name: text(200).describe('Item name (BT-153).'),
  description: text(1000).optional().describe('BT-154 (EN 16931 and above).'),
  quantity: z.number().finite().min(-1e9).max(1e9).describe('BT-129.'),
  unit_code: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/)
    .default('C62')
    .describe('UN/ECE Rec. 20 unit (BT-130): C62 one, HUR hour, DAY day, KGM kilogram...'),
  unit_price: amount.describe('Net price of one unit (BT-146).'),
  line_total: amount.describe('Net amount of the line (BT-131): quantity × unit_price, rounded to cents.'),
  vat_category: z.enum(VAT_CATEGORIES).default('S').describe('BT-151: S standard, Z zero, E exempt, AE reverse charge, K intra-EU, G export, O outside scope.'),
  vat_rate: z.number().min(0).max(100).describe('BT-152, in percent.'),
});

const breakdownSchema = z.strictObject({
  vat_category: z.enum(VAT_CATEGORIES).default('S'),
  vat_rate: z.number().min(0).max(100),
  taxable_amount: amount.describe('BT-116: the lines’ net sum at this category and rate.'),
  tax_amount: amount.describe('BT-117: taxable_amount × rate, rounded to cents.'),
  exemption_reason: text(500).optional().describe('BT-120, for categories E, AE, K, G, O.'),
});

export const invoiceSchema = z
  .strictObject({
    number: text(100).describe('Invoice number (BT-1).'),
    type_code: z.enum(['380', '381', '384', '389', '751']).default('380').describe('BT-3: 380 invoice, 381 credit note, 384 corrected, 389 self-billed.'),
    issue_date: date.describe('BT-2.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as "EUR"' })
      .describe('BT-5.'),
    buyer_reference: text(200).optional().describe('BT-10 (the Leitweg-ID for XRechnung).'),
    order_reference: text(200).optional().describe('Buyer’s purchase order (BT-13).'),
    note: text(5000).optional().describe('BT-22.'),
    delivery_date: date.optional().describe('Actual delivery date (BT-72).'),
    seller: partySchema,
    buyer: partySchema,
    lines: z.array(lineSchema).min(1).max(1000),
    vat_breakdown: z.array(breakdownSchema).min(1).max(50).describe('One entry per VAT category and rate (BG-23).'),
    totals: z.strictObject({
      line_total: amount.describe('BT-106: sum of the line totals.'),
      tax_basis_total: amount.describe('BT-109: total without VAT (no document-level allowances here, so equal to line_total).'),
      tax_total: amount.describe('BT-110: sum of the breakdown’s tax amounts.'),
      grand_total: amount.describe('BT-112: tax_basis_total + tax_total.'),
      prepaid: amount.default(0).describe('BT-113.'),
      due_payable: amount.describe('BT-115: grand_total - prepaid.'),
    }),
    payment: z
      .strictObject({
        due_date: date.optional().describe('BT-9.'),
        terms: text(1000).optional().describe('Payment terms (BT-20).'),
        means_code: z
          .string()
          .regex(/^\d{1,3}$/)
          .default('58')
          .describe('UNTDID 4461 (BT-81): 58 SEPA credit transfer, 30 credit transfer, 59 direct debit...'),
        iban: z
          .string()
          .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, { message: 'must be an IBAN without spaces' })
          .optional()
          .describe('BT-84.'),
        bic: z
          .string()
          .regex(/^[A-Z0-9]{8}([A-Z0-9]{3})?$/)
          .optional()
          .describe('BT-86.'),
        account_name: text(200).optional().describe('BT-85.'),
        reference: text(140).optional().describe('Remittance information (BT-83).'),
      })
      .default({ means_code: '58' }),
  })
  .describe('An invoice as JSON (the EN 16931 core): the CII XML is written from it; the same object can be a template’s data.');

export type Invoice = z.output<typeof invoiceSchema>;
