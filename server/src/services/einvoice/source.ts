// Where the invoice of an e-invoice call comes from (docs/api.md#reading-an-e-invoice): the XML as
// sent, or the invoice attached to a hybrid PDF (Factur-X, ZUGFeRD, XRechnung). The PDF's files are
// listed by the PDF tools (the one input gate, readPdfInput: bombs 413, damage 422 pdf_unreadable;
// at most four such calls at once), and exactly one must be the invoice: none or two is a 422 saying so.

import { readInvoice } from '../../einvoice/read/read-invoice.ts';
import { ApiError } from '../../errors.ts';
import type { AttachedFile } from '../../pdf/attached-files.ts';
import type { EInvoiceOrigin } from '../../shapes/einvoice-inspection-json.ts';
import type { Account } from '../accounts/keys.ts';
import type { PdfToolsService } from '../pdf-tools/pdf-tools.ts';

/** What a call sends: exactly one of the XML and a PDF. */
export type EInvoiceInput = { xml: string | Uint8Array; pdf?: undefined } | { pdf: Uint8Array; xml?: undefined };

export interface EInvoiceSource {
  xml: string | Uint8Array;
  origin: EInvoiceOrigin;
}

/** The names the hybrid formats give their XML (Factur-X, ZUGFeRD 1 and 2, XRechnung), compared without case. */
const INVOICE_NAMES = new Set(['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml']);
/**
 * Another XML attached as the document's alternative form, its data or its source may be the invoice
 * too, when its root is one: Source is how POST /v1/einvoice/render's attach_xml attaches it, so its PDFs read back.
 */
const INVOICE_RELATIONSHIPS = new Set(['Alternative', 'Data', 'Source']);

/** The XML to read: as sent, or the one invoice attachment of the PDF. */
export async function einvoiceSource(
  input: EInvoiceInput,
  account: Account | undefined,
  tools: Pick<PdfToolsService, 'attachedFiles'>,
): Promise<EInvoiceSource> {
  if (input.xml !== undefined) return { xml: input.xml, origin: { kind: 'xml' } };
  const { files } = await tools.attachedFiles({ pdf: input.pdf }, account);
  const invoices = files.filter(isInvoice);
  if (invoices.length === 0) throw new ApiError('einvoice_unreadable', `The PDF carries no e-invoice: ${attachedList(files)}.`);
  if (invoices.length > 1)
    throw new ApiError(
      'einvoice_unreadable',
      `The PDF carries ${invoices.length} e-invoices (${invoices.map((file) => file.name).join(', ')}); a hybrid invoice has exactly one.`,
    );
  const [invoice] = invoices as [AttachedFile];
  return { xml: invoice.bytes!, origin: { kind: 'pdf', attachment: invoice.name } };
}

function isInvoice(file: AttachedFile): boolean {
  if (!file.bytes) return false;
  if (INVOICE_NAMES.has(file.name.toLowerCase())) return true;
  if (!INVOICE_RELATIONSHIPS.has(file.relationship ?? '')) return false;
  try {
    readInvoice(file.bytes);
    return true;
  } catch {
    // Not well-formed, hostile or not an invoice: some other XML the sender attached.
    return false;
  }
}

function attachedList(files: AttachedFile[]): string {
  if (files.length === 0) return 'it has no attached files';
  const names = files.slice(0, 10).map((file) => `${file.name}${file.relationship ? ` (${file.relationship})` : ''}`);
  return `none of its attached files (${names.join(', ')}${files.length > 10 ? ', ...' : ''}) is factur-x.xml, zugferd-invoice.xml, xrechnung.xml or an invoice XML attached as Alternative, Data or Source`;
}
