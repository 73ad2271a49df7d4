// Wire schemas of e-invoices: reading one (docs/api.md#reading-an-e-invoice), POST /v1/einvoice/inspect's
// JSON body and the inspection it answers; making one (POST /v1/einvoice): the JSON invoice and format.

import { z } from 'zod';
import { makeInvoiceSchema } from '../../einvoice/make/invoice-json.ts';
import { EINVOICE_FORMATS } from '../../einvoice/make/targets.ts';

export const einvoiceXmlRequestSchema = z
  .strictObject({ xml: z.string().min(1).describe('The e-invoice XML (CII, UBL Invoice or CreditNote), as text.') })
  .describe('The XML as a JSON string; or send the XML itself as the body with Content-Type application/xml or text/xml.');

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
