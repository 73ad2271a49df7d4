// E-invoices without a PDF: reading the ones a business receives (docs/api.md#reading-an-e-invoice:
// syntax, profile, rule report, the invoice as JSON) and making one from a JSON invoice
// (docs/api.md#making-an-e-invoice: the XML of a format, checked by its rules). Both free.

import { z } from 'zod';
import { readEInvoiceUpload } from '../einvoice-upload.ts';
import { operation } from '../operation.ts';
import { einvoiceInspectionSchema, einvoiceMakeRequestSchema, einvoiceXmlRequestSchema } from '../schemas/einvoice.ts';
import { inspectEInvoice } from '../../services/einvoice-inspect.ts';
import { makeEInvoiceXml } from '../../services/einvoice-make.ts';

const XML_BODY = z.string().describe('The e-invoice XML itself.');

export function einvoiceOperations() {
  return [
    operation({
      method: 'post',
      path: '/v1/einvoice/inspect',
      summary: 'Read an e-invoice (CII, UBL Invoice or CreditNote): syntax, profile, the EN 16931 / XRechnung / Peppol rule report, the invoice as JSON',
      tag: 'E-invoices',
      auth: 'api_key',
      bodies: { 'application/xml': XML_BODY, 'text/xml': XML_BODY, 'application/json': einvoiceXmlRequestSchema },
      description:
        'Reads the XML (the body, or JSON {xml}; at most 20 MB: 413) and runs every rule set on it; valid says whether the rule set ' +
        'its BT-24 names (XRechnung, Peppol, else EN 16931) has no fatal finding. Not charged, nothing stored, nothing fetched. ' +
        'An XML that is not well-formed, has a DOCTYPE or entities, or whose root is not an invoice: 422 einvoice_unreadable.',
      responses: { 200: { description: 'The inspection.', body: einvoiceInspectionSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'payload_too_large', 'einvoice_unreadable'],
      handler: async (_input, req, res) => {
        res.json(inspectEInvoice(await readEInvoiceUpload(req)));
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
