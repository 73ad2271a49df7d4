// Wire schemas of e-invoices: reading one (docs/api.md#reading-an-e-invoice): the JSON bodies of POST
// /v1/einvoice/inspect and /v1/einvoice/render (the XML as text or a hybrid PDF as base64; a raw body
// has no fields), the render's options and the inspection answered; making one (POST /v1/einvoice):
// the JSON invoice and format.

import { z } from 'zod';
import { makeInvoiceSchema } from '../../einvoice/make/invoice-json.ts';
import { EINVOICE_FORMATS } from '../../einvoice/make/targets.ts';
import { pdfAFields } from '../../pdf/pdf-a-options.ts';
import { pdfInputFields } from './pdf-input.ts';

/** The invoice of a JSON body: its XML as text, or a hybrid PDF (Factur-X, ZUGFeRD, XRechnung) as base64. */
const einvoiceInputFields = {
  xml: z.string().min(1).optional().describe('The e-invoice XML (CII, UBL Invoice or CreditNote), as text. Exactly one of xml and pdf.'),
  pdf: pdfInputFields.pdf.describe('A hybrid PDF (Factur-X, ZUGFeRD, XRechnung) as base64: its invoice attachment is read. Exactly one of xml and pdf.'),
};

const exactlyOne = (body: { xml?: unknown; pdf?: unknown }) => (body.xml === undefined) !== (body.pdf === undefined);
const EXACTLY_ONE = { message: 'needs exactly one of xml and pdf' };

export const einvoiceXmlRequestSchema = z
  .strictObject(einvoiceInputFields)
  .refine(exactlyOne, EXACTLY_ONE)
  .describe('The XML as a JSON string or the PDF as base64; or send either itself as the body (Content-Type application/xml, text/xml, application/pdf).');

export const einvoiceRenderOptionsSchema = z
  .strictObject({
    template_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('A template of this key to draw the invoice with instead of Quire’s default; its data is the inspection.'),
    pdf_a: pdfAFields.pdf_a,
    attach_xml: z
      .boolean()
      .default(false)
      .describe('Attach the invoice XML (Source): under its name in the PDF it came from, else invoice-cii.xml / invoice-ubl.xml. With pdf_a, only PDF/A-3.'),
    filename: z.string().min(1).max(200).optional().describe('For Content-Disposition and the stored copy. Default: the invoice number (BT-1).pdf.'),
    store: z.boolean().optional().describe('Keep a copy, as for POST /v1/pdf; default: the key’s auto_store.'),
  })
  .refine((options) => !options.attach_xml || options.pdf_a === undefined || /^(PDF\/A-)?3/.test(options.pdf_a), {
    message: 'attach_xml needs PDF/A-3 (3b, 3u, 3a): earlier parts allow no XML attachment',
    path: ['attach_xml'],
  });

export const einvoiceRenderRequestSchema = z
  .strictObject({ ...einvoiceInputFields, options: einvoiceRenderOptionsSchema.optional() })
  .refine(exactlyOne, EXACTLY_ONE)
  .describe('The invoice (xml or pdf) and how to draw it; a raw XML or PDF body takes the default options.');

const finding = z.object({
  id: z.string().describe('The official rule id: BR-CO-15, BR-DE-15, PEPPOL-EN16931-R001...'),
  detail: z.string().describe('Our sentence: what the invoice must do.'),
  location: z.string().describe('The element at fault, as a path of prefixed names (/rsm:CrossIndustryInvoice/...).'),
});

const ruleSetReport = z.object({
  fatal: z.array(finding).describe('Findings of rules flagged fatal: the invoice fails this rule set when there is one.'),
  warnings: z.array(finding),
  partial: z.literal(true).optional().describe('This rule set is not complete yet: a clean report is not the official verdict. No set is partial today.'),
});

export const einvoiceInspectionSchema = z.object({
  syntax: z.enum(['CII', 'UBL']),
  document: z.enum(['Invoice', 'CreditNote']).describe('UBL: the root element; CII: the type code (BT-3), a credit note code (381, 396...) or not.'),
  specification_id: z.string().nullable().describe('The specification identifier (BT-24) as written; null when missing.'),
  profile: z
    .string()
    .nullable()
    .describe('XRechnung, Peppol BIS Billing 3.0, EN 16931, or Factur-X MINIMUM / BASIC WL / BASIC / EXTENDED, from BT-24; null: unknown.'),
  rule_set: z.enum(['en16931', 'xrechnung', 'peppol']).describe('The rule set the profile is checked by (en16931 unless BT-24 names a CIUS).'),
  valid: z.boolean().describe('No fatal finding in rule_set.'),
  rule_sets: z
    .object({ en16931: ruleSetReport, xrechnung: ruleSetReport, peppol: ruleSetReport })
    .describe('Every rule set is run on every invoice, whatever BT-24 says.'),
  invoice: z.looseObject({}).describe('The EN 16931 model read from the XML, keys in snake_case, without source locations.'),
  source: z
    .object({
      kind: z.enum(['xml', 'pdf']),
      attachment: z.string().optional().describe('kind pdf: the name of the attached file the invoice was read from (factur-x.xml...).'),
    })
    .describe('What was sent: the XML itself, or a PDF with the invoice attached.'),
});

/** POST /v1/einvoice: a JSON invoice and the format to make of it. */
export const einvoiceMakeRequestSchema = z
  .strictObject({
    format: z
      .enum(EINVOICE_FORMATS)
      .describe(
        'en16931-cii / en16931-ubl: EN 16931 without a CIUS; xrechnung-cii / xrechnung-ubl: XRechnung 3.0; peppol-ubl: Peppol BIS Billing 3.0; ' +
          'facturx-basic / facturx-en16931 / facturx-extended: the Factur-X 1.07 (ZUGFeRD 2.3) profile’s CII. facturx-minimum and facturx-basicwl carry no lines: 400.',
      ),
    invoice: makeInvoiceSchema,
  })
  .describe('The invoice as JSON and the format to make of it.');
