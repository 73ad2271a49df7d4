// The JSON invoice POST /v1/einvoice makes into every target format (docs/api.md#making-an-e-invoice):
// the render routes' first invoice JSON, every field kept with its name, grown to what
// real invoices carry. Totals and the VAT breakdown may be left out: json-amounts.ts computes them.

import { z } from 'zod';
import { MIME_CODE_LIST } from '../codes/code-lists.ts';
import { allowanceChargeSchema, breakdownSchema, deliverySchema, lineSchema, partySchema, paymentSchema, totalsSchema } from './json-parts.ts';
import { code, date, text } from './json-values.ts';

export const DOCUMENT_TYPES = ['380', '381', '383', '384', '386', '389', '326', '261', '262', '396', '751'] as const;

export const makeInvoiceSchema = z
  .strictObject({
    number: text(100).describe('Invoice number (BT-1).'),
    type_code: z
      .enum(DOCUMENT_TYPES)
      .default('380')
      .describe(
        'BT-3 (UNTDID 1001): 380 invoice, 381 credit note, 383 debit note, 384 corrected invoice, 386 prepayment, 389 self-billed, 326 partial, 751 information only. A credit note code makes a UBL CreditNote.',
      ),
    issue_date: date.describe('BT-2.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as "EUR"' })
      .describe('BT-5.'),
    vat_point_date: date.optional().describe('BT-7.'),
    business_process: text(200).optional().describe('BT-23. Default: the target’s (Peppol and XRechnung: urn:fdc:peppol.eu:2017:poacc:billing:01:1.0).'),
    buyer_reference: text(200).optional().describe('BT-10 (the Leitweg-ID for XRechnung).'),
    order_reference: text(200).optional().describe('Buyer’s purchase order (BT-13).'),
    sales_order_reference: text(200).optional().describe('BT-14.'),
    contract_reference: text(200).optional().describe('BT-12.'),
    project_reference: text(200).optional().describe('BT-11.'),
    despatch_advice_reference: text(200).optional().describe('BT-16.'),
    receiving_advice_reference: text(200).optional().describe('BT-15.'),
    tender_reference: text(200).optional().describe('Tender or lot (BT-17).'),
    buyer_accounting_reference: text(200).optional().describe('BT-19.'),
    note: text(5000).optional().describe('BT-22 (one note; see notes for several).'),
    notes: z
      .array(z.strictObject({ text: text(5000).describe('BT-22.'), subject_code: code(3).optional().describe('UNTDID 4451 (BT-21); not carried by UBL.') }))
      .max(50)
      .optional()
      .describe('BG-1, after note.'),
    delivery_date: date.optional().describe('Actual delivery date (BT-72); the same as delivery.date.'),
    delivery: deliverySchema.optional().describe('BG-13.'),
    invoice_period: z.strictObject({ start: date.optional(), end: date.optional() }).optional().describe('BG-14 (BT-73 / BT-74).'),
    preceding_invoices: z
      .array(z.strictObject({ number: text(100).describe('BT-25.'), issue_date: date.optional().describe('BT-26.') }))
      .max(50)
      .optional()
      .describe('BG-3: the invoices a credit note or correction refers to.'),
    supporting_documents: z
      .array(
        z.strictObject({
          reference: text(200).describe('BT-122.'),
          description: text(500).optional().describe('BT-123.'),
          uri: z.url().max(2000).optional().describe('BT-124 (written as given, never fetched).'),
          attachment: z
            .strictObject({
              content_base64: z.base64().max(10_000_000).describe('BT-125.'),
              mime_code: z.enum(MIME_CODE_LIST),
              filename: text(200),
            })
            .optional(),
        }),
      )
      .max(20)
      .optional()
      .describe('BG-24.'),
    seller: partySchema.describe('BG-4.'),
    buyer: partySchema.describe('BG-7.'),
    lines: z.array(lineSchema).min(1).max(1000).describe('BG-25.'),
    allowances_charges: z
      .array(allowanceChargeSchema)
      .max(50)
      .optional()
      .describe('Document allowances and charges (BG-20 / BG-21), each with vat_category and vat_rate.'),
    vat_breakdown: z
      .array(breakdownSchema)
      .max(50)
      .optional()
      .describe('BG-23: one entry per VAT category and rate. Computed when left out; an entry may give only category, rate and exemption reason.'),
    totals: totalsSchema.optional().describe('BG-22: computed when left out; each amount given is checked against the lines.'),
    payment: paymentSchema.default({ means_code: '58' }).describe('BT-9, BT-20 and the payment means (BG-16).'),
  })
  .describe('An invoice as JSON: every target format (CII, UBL, XRechnung, Peppol, Factur-X) is written from it.');

export type MakeInvoice = z.output<typeof makeInvoiceSchema>;
export type MakeLine = MakeInvoice['lines'][number];
export type MakeAllowanceCharge = z.output<typeof allowanceChargeSchema>;
export type MakeParty = MakeInvoice['seller'];
