// Reading the e-invoices a business receives (docs/api.md#reading-an-e-invoice): the syntax,
// profile and rule report of an XML, and the invoice as JSON. Free, like PDF inspect.

import { z } from 'zod';
import { readEInvoiceUpload } from '../einvoice-upload.ts';
import { operation } from '../operation.ts';
import { einvoiceInspectionSchema, einvoiceXmlRequestSchema } from '../schemas/einvoice.ts';
import { inspectEInvoice } from '../../services/einvoice-inspect.ts';

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
  ];
}
