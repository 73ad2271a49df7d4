// The e-invoice tools: make_einvoice (JSON to CII/UBL XML), validate_einvoice (the rule report of
// an XML or hybrid PDF) and read_einvoice (its data as JSON, or a readable PDF of it).

import { z } from 'zod';
import { einvoiceMakeRequestSchema, einvoiceRenderRequestSchema } from '../http/schemas/einvoice.ts';
import { jsonResult, pdfResult, problemResult, textResult } from './results.ts';
import { problemOf } from './api-caller.ts';
import { callStoring, type ToolArgs, type ToolSpec } from './tool-spec.ts';

const { xml, pdf } = einvoiceRenderRequestSchema.shape;
const invoiceInput = { xml, pdf };

const validateSchema = z.strictObject(invoiceInput).describe('The invoice: its XML as a string, or a hybrid PDF (Factur-X, ZUGFeRD) as base64. Exactly one.');

const readSchema = z
  .strictObject({
    ...einvoiceRenderRequestSchema.shape,
    view: z
      .enum(['data', 'pdf'])
      .default('data')
      .describe('data: the invoice as JSON (EN 16931 terms in snake_case), not charged. pdf: a readable PDF of it, charged as a render.'),
  })
  .describe('The invoice (xml or pdf) and how to read it.');

/** The inspection without the invoice itself: what a validation answers. */
function verdict(json: Record<string, unknown>): Record<string, unknown> {
  const { invoice: _invoice, ...rest } = json;
  return rest;
}

const storeIn = (args: ToolArgs) => (args.options as { store?: unknown } | undefined)?.store;
const withOptionsStore = (args: ToolArgs) => ({ ...args, options: { ...(args.options as object | undefined), store: true } });

export const einvoiceTools: ToolSpec[] = [
  {
    name: 'make_einvoice',
    title: 'Make an e-invoice XML',
    description:
      'Make an e-invoice XML from a JSON invoice: EN 16931, XRechnung or Peppol in CII or UBL, or a Factur-X profile’s CII (POST /v1/einvoice). ' +
      'Totals and the VAT breakdown are computed; a fatal rule finding is einvoice_invalid listing each rule. Not charged, nothing stored.',
    input: einvoiceMakeRequestSchema,
    readOnly: true,
    call: async (args, { api }) => {
      const answer = await api('POST', '/v1/einvoice', args);
      const result = textResult(answer, 'application/xml', `quire://results/einvoice-${String(args.format ?? 'invoice')}.xml`);
      if (problemOf(answer)) return result;
      return { ...result, content: [{ type: 'text', text: answer.headers.get('x-e-invoice-report') ?? '' }, ...result.content] };
    },
  },
  {
    name: 'validate_einvoice',
    title: 'Validate an e-invoice',
    description:
      'Check an e-invoice (CII, UBL Invoice or CreditNote XML, or a hybrid PDF) against EN 16931, XRechnung and Peppol: syntax, profile, ' +
      'valid (no fatal finding in the rule set its BT-24 names) and every finding with its rule id (POST /v1/einvoice/inspect). Not charged.',
    input: validateSchema,
    readOnly: true,
    call: async (args, { api }) => jsonResult(await api('POST', '/v1/einvoice/inspect', args), verdict),
  },
  {
    name: 'read_einvoice',
    title: 'Read an e-invoice',
    description:
      'Read an e-invoice (XML or hybrid PDF): view "data" answers the invoice as JSON with its profile and validity (POST /v1/einvoice/inspect, ' +
      'not charged); view "pdf" draws it as a readable PDF, through Quire’s default view or options.template_id (POST /v1/einvoice/render; ' +
      'charged as one document, stored unless options.store is false).',
    input: readSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => {
      const { view, ...invoice } = args;
      if (view === 'pdf') return pdfResult(await callStoring(api, '/v1/einvoice/render', invoice, storeIn, withOptionsStore), inlineMaxBytes);
      if (invoice.options !== undefined) return problemResult({ status: 400, code: 'invalid_request', detail: 'options: only with view "pdf"' });
      return jsonResult(await api('POST', '/v1/einvoice/inspect', invoice));
    },
  },
];
