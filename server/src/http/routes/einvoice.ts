// E-invoices: reading the ones a business receives (docs/api.md#reading-an-e-invoice): the syntax,
// profile and rule report of an XML or a hybrid PDF, and the invoice as JSON (free, like PDF
// inspect); the same invoice rendered as a readable PDF (charged like a render); and making one from
// a JSON invoice (docs/api.md#making-an-e-invoice: the XML of a format, checked by its rules; free).

import { z } from 'zod';
import type { ErrorCode } from '../../errors.ts';
import { readEInvoiceUpload } from '../einvoice-upload.ts';
import { optionalAccountOf } from '../middleware/auth.ts';
import { operation } from '../operation.ts';
import { einvoiceInspectionSchema, einvoiceMakeRequestSchema, einvoiceRenderRequestSchema, einvoiceXmlRequestSchema } from '../schemas/einvoice.ts';
import { makeEInvoiceXml } from '../../services/einvoice/make.ts';
import { SOURCE_RENDER_ERRORS } from '../schemas/render.ts';
import type { EInvoiceReadService } from '../../services/einvoice/read.ts';
import { USAGE_HEADER_DOCS } from '../../wire/usage-headers.ts';
import { RECEIPT_HEADER_DOCS } from './receipts.ts';
import { requestIdOf, sendPdf, STORED_HEADER_DOCS } from './render.ts';

const XML_BODY = z.string().describe('The e-invoice XML itself.');
const PDF_BODY = z.string().describe('A hybrid PDF itself (Factur-X, ZUGFeRD, XRechnung): the invoice is read from its attachment.');
/** A PDF input is refused as every PDF input is: a bomb 413, a damaged file 422 pdf_unreadable, an encrypted one 422 password_required. */
const PDF_INPUT_ERRORS: ErrorCode[] = ['pdf_unreadable', 'password_required', 'pdf_tool_unavailable'];
const INPUT_DOC =
  'The invoice is the body: XML (application/xml, text/xml; at most 20 MB: 413) or a hybrid PDF (application/pdf; opened as every PDF ' +
  'input is, 100 MB, bombs 413; at most 4 PDF tool calls at once, 503 renderer_busy), or JSON {xml} or {pdf: base64}. From a PDF, exactly one attachment must be the invoice (factur-x.xml, ' +
  'zugferd-invoice.xml, xrechnung.xml, or an invoice XML attached as Alternative, Data or Source): none or two is 422 einvoice_unreadable. ' +
  'An XML that is not well-formed, has a DOCTYPE or entities, or whose root is not an invoice: 422 einvoice_unreadable. Nothing is fetched.';

export function einvoiceOperations(reader: EInvoiceReadService) {
  return [
    operation({
      method: 'post',
      path: '/v1/einvoice/inspect',
      summary:
        'Read an e-invoice (CII, UBL Invoice or CreditNote, or a hybrid PDF): syntax, profile, the EN 16931 / XRechnung / Peppol rule report, the invoice as JSON',
      tag: 'E-invoices',
      auth: 'api_key',
      bodies: { 'application/xml': XML_BODY, 'text/xml': XML_BODY, 'application/pdf': PDF_BODY, 'application/json': einvoiceXmlRequestSchema },
      description:
        `${INPUT_DOC} Every rule set is run; valid says whether the rule set its BT-24 names (XRechnung, Peppol, else EN 16931) has no fatal ` +
        'finding; source says whether the XML was sent or read from a PDF attachment (its name). Not charged, nothing stored.',
      responses: { 200: { description: 'The inspection.', body: einvoiceInspectionSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'payload_too_large', 'einvoice_unreadable', 'renderer_busy', ...PDF_INPUT_ERRORS],
      handler: async (_input, req, res) => {
        const { input } = await readEInvoiceUpload(req, einvoiceXmlRequestSchema);
        res.json(await reader.inspect(input, optionalAccountOf(res)));
      },
    }),
    operation({
      method: 'post',
      path: '/v1/einvoice/render',
      summary: 'Render an e-invoice (XML or hybrid PDF) as a readable PDF, through Quire’s default view or a template of the key',
      tag: 'E-invoices',
      auth: 'api_key',
      bodies: { 'application/xml': XML_BODY, 'text/xml': XML_BODY, 'application/pdf': PDF_BODY, 'application/json': einvoiceRenderRequestSchema },
      description:
        `${INPUT_DOC} The default view shows every business term the invoice carries, labelled with its BT number, and the rule report last; ` +
        'options.template_id draws it with a template of the key instead, whose data is the inspection (as POST /v1/einvoice/inspect answers) ' +
        'plus report, the findings of its rule set. options.pdf_a and attach_xml (the XML attached as Source) make an archival copy. ' +
        'An invoice with fatal findings still renders; X-E-Invoice-Report says rules=<set>; fatal=N; warnings=M. Charged, receipted and ' +
        'stored as a render (POST /v1/pdf); a refused input is not charged.',
      responses: {
        200: {
          description: 'The PDF.',
          body: 'pdf',
          headers: {
            'X-E-Invoice-Report': 'rules=<rule set of BT-24>; fatal=N; warnings=M',
            ...USAGE_HEADER_DOCS,
            ...STORED_HEADER_DOCS,
            ...RECEIPT_HEADER_DOCS,
          },
        },
      },
      errors: [...SOURCE_RENDER_ERRORS, 'einvoice_unreadable', 'storage_unavailable', 'conformance_failed', ...PDF_INPUT_ERRORS],
      handler: async (_input, req, res) => {
        const { input, fields } = await readEInvoiceUpload(req, einvoiceRenderRequestSchema);
        sendPdf(res, await reader.render(input, fields.options ?? {}, optionalAccountOf(res), { requestId: requestIdOf(res) }));
      },
    }),
    operation({
      method: 'post',
      path: '/v1/einvoice',
      summary: 'Make an e-invoice XML from a JSON invoice: EN 16931, XRechnung or Peppol in CII or UBL, or a Factur-X profile’s CII',
      tag: 'E-invoices',
      auth: 'api_key',
      body: einvoiceMakeRequestSchema,
      description:
        'Computes what the JSON leaves out (line nets, VAT breakdown, totals; stated ones must agree), writes the XML of `format` and runs ' +
        'the format’s rule set on it (en16931; xrechnung; peppol) as read back. A fatal finding is 400 einvoice_invalid listing each ' +
        '{id, detail, location}; warnings are in X-E-Invoice-Report. A field the format cannot carry, a credit transfer without iban, ' +
        'a seller identified only by a tax number: 400 invalid_request naming the field. Not charged, nothing stored.',
      responses: {
        200: {
          description: 'The XML alone.',
          body: 'xml',
          headers: { 'X-E-Invoice-Report': 'rules=<set>; fatal=0; warnings=<n>; ids=<warning ids>: the rule report of the XML.' },
        },
      },
      errors: ['invalid_json', 'invalid_request', 'einvoice_invalid', 'unauthorized', 'payload_too_large'],
      handler: (input, _req, res) => {
        const made = makeEInvoiceXml(input.body);
        res.set('X-E-Invoice-Report', made.report).type('application/xml').send(made.xml);
      },
    }),
  ];
}
