// The parts of the JSON invoice (invoice-json.ts): parties and addresses, lines, allowances and
// charges, VAT breakdown entries, payment, delivery. Every field of the first invoice JSON (the
// render routes', written before POST /v1/einvoice) kept its name here; each later one names its BT/BG.

import { z } from 'zod';
import { amount, code, country, date, identifier, price, quantity, rate, text } from './json-values.ts';

export const addressSchema = z.strictObject({
  line1: text(200).optional().describe('BT-35 / BT-50 / BT-75.'),
  line2: text(200).optional().describe('BT-36 / BT-51 / BT-76.'),
  line3: text(200).optional().describe('BT-162 / BT-163 / BT-165.'),
  postcode: text(20).optional().describe('BT-38 / BT-53 / BT-78.'),
  city: text(100).optional().describe('BT-37 / BT-52 / BT-77.'),
  subdivision: text(100).optional().describe('Country subdivision (BT-39 / BT-54 / BT-79).'),
  country_code: country.describe('BT-40 / BT-55 / BT-80.'),
});

export const partySchema = z.strictObject({
  name: text(200).describe('Legal name (BT-27 / BT-44).'),
  trading_name: text(200).optional().describe('BT-28 / BT-45.'),
  identifiers: z.array(identifier).max(10).optional().describe('Seller / buyer identifiers (BT-29 / BT-46), such as a GLN with scheme 0088.'),
  vat_id: text(30).optional().describe('VAT identifier (BT-31 / BT-48), such as DE123456789.'),
  tax_number: text(30).optional().describe('Seller’s local tax number (BT-32): not a VAT id, so BR-CO-26 also needs identifiers or legal_id or vat_id.'),
  legal_id: text(50).optional().describe('Legal registration id (BT-30 / BT-47).'),
  legal_id_scheme: code(10).optional().describe('Scheme of legal_id (ISO 6523 ICD).'),
  additional_legal_info: text(1000).optional().describe('Seller only: additional legal information (BT-33), such as share capital.'),
  email: z.email().max(200).optional().describe('Electronic address (BT-34 / BT-49) written with scheme EM; electronic_address wins when both are given.'),
  electronic_address: identifier
    .optional()
    .describe('Electronic address (BT-34 / BT-49) with its EAS scheme, such as {id: "0204:991-12345-67", scheme: "0204"}.'),
  contact: z
    .strictObject({ name: text(100).optional(), phone: text(50).optional(), email: z.email().max(200).optional() })
    .optional()
    .describe('Contact point (BT-41..43 / BT-56..58).'),
  address: addressSchema,
});

/** UNTDID 5305 codes EN 16931 allows (BT-95, BT-102, BT-118, BT-151). */
const VAT_CATEGORY_CODES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;

const vatCategory = z
  .enum(VAT_CATEGORY_CODES)
  .describe(
    'UNTDID 5305: S standard, Z zero, E exempt, AE reverse charge, K intra-community, G export, O outside scope, L Canary Islands, M Ceuta and Melilla.',
  );

export const allowanceChargeSchema = z.strictObject({
  kind: z.enum(['allowance', 'charge']).describe('An allowance (BG-20 / BG-27) lowers the amount, a charge (BG-21 / BG-28) raises it.'),
  amount: amount.optional().describe('BT-92 / BT-99 / BT-136 / BT-141; computed from base_amount × percentage when left out.'),
  base_amount: amount.optional().describe('BT-93 / BT-100 / BT-137 / BT-142. On a line, default: quantity × unit_price.'),
  percentage: rate.optional().describe('BT-94 / BT-101 / BT-138 / BT-143.'),
  reason: text(500).optional().describe('BT-97 / BT-104 / BT-139 / BT-144. A reason or a reason code is required.'),
  reason_code: code(3)
    .optional()
    .describe('UNTDID 5189 for allowances (95 discount...), UNTDID 7161 for charges (FC freight...) (BT-98 / BT-105 / BT-140 / BT-145).'),
  vat_category: vatCategory.optional().describe('Document level only, required there (BT-95 / BT-102).'),
  vat_rate: rate.optional().describe('Document level only (BT-96 / BT-103), in percent.'),
});

export const lineSchema = z.strictObject({
  id: text(50).optional().describe('BT-126. Default: the line’s position, from 1.'),
  name: text(200).describe('Item name (BT-153).'),
  description: text(1000).optional().describe('BT-154.'),
  note: text(1000).optional().describe('BT-127.'),
  quantity: quantity.describe('BT-129.'),
  unit_code: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/)
    .default('C62')
    .describe('UN/ECE Rec. 20 unit (BT-130): C62 one, HUR hour, DAY day, KGM kilogram...'),
  unit_price: price.describe('Net price of one unit (BT-146), or of base_quantity units.'),
  base_quantity: quantity.optional().describe('BT-149: how many units unit_price is for (default 1).'),
  line_total: amount
    .optional()
    .describe(
      'BT-131: quantity × unit_price / base_quantity, less line allowances, plus line charges, to cents. Computed when left out, refused when it differs.',
    ),
  allowances_charges: z.array(allowanceChargeSchema).max(50).optional().describe('Line allowances and charges (BG-27 / BG-28).'),
  vat_category: vatCategory.default('S').describe('BT-151.'),
  vat_rate: rate.describe('BT-152, in percent.'),
  period: z.strictObject({ start: date.optional(), end: date.optional() }).optional().describe('Line period (BT-134 / BT-135).'),
  order_line_reference: text(100).optional().describe('BT-132.'),
  accounting_reference: text(100).optional().describe('Buyer accounting reference of the line (BT-133).'),
  seller_item_id: text(100).optional().describe('BT-155.'),
  buyer_item_id: text(100).optional().describe('BT-156.'),
  standard_item_id: identifier.optional().describe('BT-157, such as a GTIN with scheme 0160.'),
  classifications: z
    .array(z.strictObject({ code: text(100), scheme: code(5).describe('UNTDID 7143 list id (STI, HS, CV...).') }))
    .max(10)
    .optional()
    .describe('BT-158.'),
  origin_country: country.optional().describe('BT-159.'),
  attributes: z
    .array(z.strictObject({ name: text(200), value: text(500) }))
    .max(50)
    .optional()
    .describe('Item attributes (BG-32).'),
});

export const breakdownSchema = z.strictObject({
  vat_category: vatCategory.default('S').describe('BT-118.'),
  vat_rate: rate.describe('BT-119, in percent.'),
  taxable_amount: amount.optional().describe('BT-116: computed from the lines and document allowances/charges when left out, refused when it differs.'),
  tax_amount: amount.optional().describe('BT-117: taxable_amount × rate to cents; computed when left out.'),
  exemption_reason: text(500).optional().describe('BT-120, for categories E, AE, K, G, O (or exemption_reason_code).'),
  exemption_reason_code: code(30).optional().describe('BT-121: a VATEX code such as VATEX-EU-AE.'),
});

export const totalsSchema = z.strictObject({
  line_total: amount.optional().describe('BT-106: sum of the line totals.'),
  allowance_total: amount.optional().describe('BT-107: sum of the document allowances.'),
  charge_total: amount.optional().describe('BT-108: sum of the document charges.'),
  tax_basis_total: amount.optional().describe('BT-109: line_total - allowance_total + charge_total.'),
  tax_total: amount.optional().describe('BT-110: sum of the breakdown’s tax amounts.'),
  grand_total: amount.optional().describe('BT-112: tax_basis_total + tax_total.'),
  prepaid: amount.optional().describe('BT-113.'),
  rounding: amount.optional().describe('BT-114.'),
  due_payable: amount.optional().describe('BT-115: grand_total - prepaid + rounding.'),
});

export const paymentSchema = z.strictObject({
  due_date: date.optional().describe('BT-9.'),
  terms: text(1000).optional().describe('Payment terms (BT-20).'),
  means_code: z
    .string()
    .regex(/^\d{1,3}$/)
    .default('58')
    .describe('UNTDID 4461 (BT-81): 58 SEPA credit transfer, 30 credit transfer (both need iban), 59 SEPA direct debit, 48 / 54 / 55 card, 10 cash...'),
  means_text: text(200).optional().describe('BT-82.'),
  iban: z
    .string()
    .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, { message: 'must be an IBAN without spaces' })
    .optional()
    .describe('Payee account (BT-84), required for credit transfer (30, 58).'),
  bic: z
    .string()
    .regex(/^[A-Z0-9]{8}([A-Z0-9]{3})?$/)
    .optional()
    .describe('BT-86.'),
  account_name: text(200).optional().describe('BT-85.'),
  reference: text(140).optional().describe('Remittance information (BT-83).'),
  mandate_reference: text(100).optional().describe('Direct debit (59): mandate reference (BT-89).'),
  creditor_id: text(50).optional().describe('Direct debit (59): the seller’s SEPA creditor id (BT-90).'),
  debited_iban: z
    .string()
    .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, { message: 'must be an IBAN without spaces' })
    .optional()
    .describe('Direct debit (59): the buyer’s account debited (BT-91).'),
  card: z
    .strictObject({
      account_number: z
        .string()
        .regex(/^\d{4,6}$/, { message: 'must be the last 4 to 6 digits of the card number' })
        .describe('BT-87.'),
      holder_name: text(100).optional().describe('BT-88.'),
    })
    .optional()
    .describe('Card payment (48, 54, 55): BG-18.'),
});

export const deliverySchema = z.strictObject({
  date: date.optional().describe('Actual delivery date (BT-72).'),
  party_name: text(200).optional().describe('Deliver-to party (BT-70).'),
  location_id: identifier.optional().describe('Deliver-to location (BT-71).'),
  address: addressSchema.optional().describe('Deliver-to address (BG-15).'),
});
