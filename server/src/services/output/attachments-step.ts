// The attachments step of every output (order 10, before PDF/A and signing): embeds the files of
// options.attachments and the e-invoice XML of options.e_invoice as associated files, with the
// Factur-X XMP schema for an e-invoice. Its checks run before anything is charged: limits, stored
// documents, and the invoice (JSON totals; XSD and profile for XML given; our EN 16931 rules, whose
// warnings go to X-E-Invoice-Report and the receipt). The bytes change on a PDF worker thread.

import { buffer } from 'node:stream/consumers';
import { ApiError } from '../../errors.ts';
import { reportHeader } from '../../einvoice/check/rule-report.ts';
import { checkedInvoiceXml, type CheckedInvoice, type EInvoiceRequest } from '../../einvoice/e-invoice.ts';
import { MakeInputError } from '../../einvoice/make/make-einvoice.ts';
import { facturXXmp } from '../../einvoice/facturx-xmp.ts';
import { PROFILES } from '../../einvoice/profiles.ts';
import { InvoiceXmlError, XmlValidatorUnavailableError } from '../../einvoice/xsd-check.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_TOTAL_BYTES, type AttachmentOption, type EInvoiceOption } from '../../pdf/attachment-options.ts';
import type { FileToEmbed } from '../../pdf/embed-files.ts';
import { embedInWorker } from '../../pdf/finisher.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { OutputOptions, OutputStep, StepContext, StepOutcome } from './steps.ts';

export interface AttachmentsStepDeps {
  documents: DocumentsService;
  /** The xmllint binary; default: xmllint on PATH (Debian libxml2-utils). */
  xmllint?: string;
}

const MB = 1024 * 1024;

/** How each kind of invoice problem opens: "does not add up" only where stated amounts disagree with the lines. */
const INVOICE_DATA_PROBLEM: Record<MakeInputError['kind'], string> = {
  shape: 'The data is not a complete invoice (docs/api.md#invoice-json)',
  totals: 'The invoice does not add up',
  other: 'The e-invoice cannot be written',
};

export class AttachmentsStep implements OutputStep {
  readonly name = 'attachments';
  readonly order = 10;
  /**
   * The invoice check() made, by its option, so apply() neither writes nor checks it twice; kept
   * with the template data it was made from (from_data), and only as long as the request's options live.
   */
  private readonly checked = new WeakMap<EInvoiceOption, { data: unknown; invoice: CheckedInvoice }>();

  constructor(private readonly deps: AttachmentsStepDeps) {}

  wanted(options: OutputOptions): boolean {
    return (attachmentsOf(options)?.length ?? 0) > 0 || options.e_invoice !== undefined;
  }

  async check(options: OutputOptions, context: StepContext): Promise<void> {
    if (!this.wanted(options)) return;
    const { field } = context;
    const eInvoice = options.e_invoice as EInvoiceOption | undefined;
    if (options.encrypt !== undefined) {
      const what = eInvoice ? 'e_invoice' : 'attachments';
      throw new ApiError('invalid_request', `${field}.${what} cannot be combined with ${field}.encrypt (an archival file is never encrypted).`);
    }
    let total = 0;
    for (const [index, file] of (attachmentsOf(options) ?? []).entries()) {
      const at = `${field}.attachments[${index}]`;
      if (eInvoice && file.filename === PROFILES[eInvoice.profile].filename)
        throw new ApiError('invalid_request', `${at}.filename ${file.filename} is the e-invoice's own name: choose another.`);
      const size = file.content !== undefined ? Buffer.byteLength(file.content, 'base64') : await this.storedSize(file.document_id!, at, context);
      if (size > MAX_ATTACHMENT_BYTES)
        throw new ApiError('payload_too_large', `${at} is ${(size / MB).toFixed(1)} MB; an attachment may be at most ${MAX_ATTACHMENT_BYTES / MB} MB.`);
      total += size;
    }
    if (eInvoice) total += Buffer.byteLength((await this.checkedInvoice(eInvoice, context)).xml);
    if (total > MAX_ATTACHMENTS_TOTAL_BYTES)
      throw new ApiError(
        'payload_too_large',
        `${field}.attachments come to ${(total / MB).toFixed(1)} MB; a document's attachments may be at most ${MAX_ATTACHMENTS_TOTAL_BYTES / MB} MB together.`,
      );
  }

  async apply(pdf: Uint8Array, options: OutputOptions, context: StepContext): Promise<StepOutcome> {
    const files: FileToEmbed[] = [];
    for (const [index, file] of (attachmentsOf(options) ?? []).entries()) {
      const bytes =
        file.content !== undefined
          ? new Uint8Array(Buffer.from(file.content, 'base64'))
          : await this.storedBytes(file.document_id!, `${context.field}.attachments[${index}]`, context);
      files.push({
        name: file.filename,
        bytes,
        mimeType: file.mime_type ?? (file.document_id !== undefined ? 'application/pdf' : 'application/octet-stream'),
        description: file.description,
        relationship: file.relationship,
      });
    }
    const eInvoice = options.e_invoice as EInvoiceOption | undefined;
    let xmp: string | undefined;
    let checked: CheckedInvoice | undefined;
    if (eInvoice) {
      const facts = PROFILES[eInvoice.profile];
      checked = await this.checkedInvoice(eInvoice, context);
      files.unshift({
        name: facts.filename,
        bytes: new TextEncoder().encode(checked.xml),
        mimeType: 'text/xml',
        description: `Factur-X ${eInvoice.profile} invoice`,
        relationship: facts.relationship,
      });
      xmp = facturXXmp(eInvoice.profile);
    }
    const out = await embedInWorker(pdf, files, xmp);
    return {
      pdf: out,
      report: {
        files: files.map((file) => ({ filename: file.name, bytes: file.bytes.byteLength, mime_type: file.mimeType, relationship: file.relationship })),
        ...(eInvoice && checked && { e_invoice: { profile: eInvoice.profile, filename: PROFILES[eInvoice.profile].filename, rules: checked.report } }),
      },
      headers: eInvoice && checked ? { 'X-E-Invoice': eInvoice.profile, 'X-E-Invoice-Report': reportHeader(checked.report) } : undefined,
    };
  }

  /** The invoice's XML and the rules' report, checked before the charge (check()) and reused when applied. */
  private async checkedInvoice(option: EInvoiceOption, context: StepContext): Promise<CheckedInvoice> {
    const known = this.checked.get(option);
    if (known && known.data === context.data) return known.invoice;
    const field = `${context.field}.e_invoice`;
    const request = option as EInvoiceRequest;
    try {
      const invoice = await checkedInvoiceXml(request, context.data, field, this.deps.xmllint);
      this.checked.set(option, { data: context.data, invoice });
      return invoice;
    } catch (error) {
      if (error instanceof MakeInputError) throw new ApiError('invalid_request', `${INVOICE_DATA_PROBLEM[error.kind]}: ${error.message}.`);
      if (error instanceof InvoiceXmlError) throw new ApiError('invalid_request', `${field}.xml does not validate as ${option.profile}: ${error.message}.`);
      if (error instanceof XmlValidatorUnavailableError)
        throw new ApiError('pdf_tool_unavailable', `E-invoices cannot be checked on this server: ${error.message}.`);
      throw error;
    }
  }

  private async storedSize(id: string, at: string, context: StepContext): Promise<number> {
    const { document, file } = await this.open(id, at, context);
    await file.close();
    return document.size;
  }

  private async storedBytes(id: string, at: string, context: StepContext): Promise<Uint8Array> {
    const { file } = await this.open(id, at, context);
    try {
      return new Uint8Array(await buffer(file.createReadStream()));
    } finally {
      await file.close();
    }
  }

  private open(id: string, at: string, context: StepContext) {
    return this.deps.documents.open(context.account.keyId, id).catch((error: unknown) => {
      if (error instanceof ApiError && (error.code === 'document_not_found' || error.code === 'document_expired'))
        throw new ApiError(error.code, `${at}.document_id ${id}: ${error.detail}`);
      throw error;
    });
  }
}

function attachmentsOf(options: OutputOptions): AttachmentOption[] | undefined {
  return options.attachments as AttachmentOption[] | undefined;
}
