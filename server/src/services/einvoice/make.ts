// The story of POST /v1/einvoice (docs/api.md#making-an-e-invoice): a JSON invoice made into the XML
// of one format and checked by that format's rule set (einvoice/make/). Not charged and nothing is
// stored, as inspect (docs/decisions.md, "Making an e-invoice is not charged").

import { reportHeader } from '../../einvoice/check/rule-report.ts';
import { makeEInvoice } from '../../einvoice/make/make-einvoice.ts';
import type { MakeInvoice } from '../../einvoice/make/invoice-json.ts';
import type { EInvoiceFormat } from '../../einvoice/make/targets.ts';

export interface MadeXml {
  xml: string;
  /** The X-E-Invoice-Report header: the rule set, and its warnings (a fatal finding throws EInvoiceInvalidError). */
  report: string;
}

export function makeEInvoiceXml(request: { format: EInvoiceFormat; invoice: MakeInvoice }): MadeXml {
  const made = makeEInvoice(request.invoice, request.format, 'invoice');
  return { xml: made.xml, report: reportHeader(made.report) };
}
