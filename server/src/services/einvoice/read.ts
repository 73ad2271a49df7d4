// The story of reading an e-invoice a business received (docs/api.md#reading-an-e-invoice): take
// the XML or a hybrid PDF (source.ts), inspect it (free), or render it readably through
// Quire's default view template or a key's own, as a render: charged, receipted and stored like one
// (the render service does it all; this only decides what it renders).

import { reportHeader } from '../../einvoice/check/rule-report.ts';
import { MAX_ATTACHMENT_BYTES } from '../../pdf/attachment-options.ts';
import { pdfOptionsSchema } from '../../render/pdf-options.ts';
import { ApiError } from '../../errors.ts';
import type { EInvoiceInspection, SourcedInspection } from '../../shapes/einvoice-inspection-json.ts';
import { inspectEInvoice } from './inspect.ts';
import { einvoiceSource, type EInvoiceInput } from './source.ts';
import { einvoicePaymentCode, textOf } from './payment-code.ts';
import { expandDefaultView } from './view-template.ts';
import type { Account } from '../accounts/keys.ts';
import type { PdfToolsService } from '../pdf-tools/pdf-tools.ts';
import type { RenderContext, RenderedPdf, RenderService } from '../render/render.ts';

export interface EInvoiceRenderOptions {
  template_id?: string;
  pdf_a?: string;
  attach_xml?: boolean;
  filename?: string;
  store?: boolean;
}

export interface EInvoiceReadDeps {
  render: Pick<RenderService, 'render' | 'previewHtml'>;
  /** Lists a hybrid PDF's attachments through the PDF input gate, within the PDF tools' slots. */
  pdfTools: Pick<PdfToolsService, 'attachedFiles'>;
}

export class EInvoiceReadService {
  constructor(private readonly deps: EInvoiceReadDeps) {}

  /** Syntax, profile, every rule set's report and the invoice as JSON; not charged. No account: the admin window's (a PDF read as any upload). */
  async inspect(input: EInvoiceInput, account: Account | undefined): Promise<SourcedInspection> {
    const { xml, origin } = await einvoiceSource(input, account, this.deps.pdfTools);
    return { ...inspectEInvoice(xml), source: origin };
  }

  /**
   * The invoice drawn as a readable PDF, with its report in X-E-Invoice-Report. An unreadable XML
   * is refused before anything is charged; fatal findings do not stop the render (the reader wants to see them).
   */
  async render(input: EInvoiceInput, options: EInvoiceRenderOptions, account: Account | undefined, context: RenderContext = {}): Promise<RenderedPdf> {
    const { xml, origin } = await einvoiceSource(input, account, this.deps.pdfTools);
    const inspection: SourcedInspection = { ...inspectEInvoice(xml), source: origin };
    const data = viewData(inspection);
    const pdfOptions = pdfOptionsSchema.parse({
      // Quire's own view has no script and loads nothing, so the load event is the finished page (about
      // twice the renders a second of the default network-idle wait); a key's template may have either.
      ...(options.template_id === undefined ? { wait_until: 'load' } : {}),
      ...(options.pdf_a !== undefined ? { pdf_a: options.pdf_a } : {}),
      ...(options.attach_xml ? { attachments: [xmlAttachment(xml, inspection)] } : {}),
    });
    const filename = options.filename ?? `${fileSafe(textOf(inspection.invoice.number) ?? 'e-invoice')}.pdf`;
    const common = { options: pdfOptions, store: options.store, filename };
    if (account === undefined) {
      const { pdf, headers } = await this.preview(data, options, pdfOptions);
      return { pdf, filename, headers: { ...headers, 'X-E-Invoice-Report': inspectionHeader(inspection) } };
    }
    const rendered = await this.deps.render.render(
      // A key's own template expands like any template render; the default one is expanded here and rendered as HTML.
      options.template_id !== undefined ? { ...common, template_id: options.template_id, data } : { ...common, html: expandDefaultView(data) },
      account,
      context,
    );
    return { ...rendered, headers: { ...rendered.headers, 'X-E-Invoice-Report': inspectionHeader(inspection) } };
  }

  /** The admin window's readable view: the default view only, neither charged nor kept (a key's template needs the key: render with it). */
  private async preview(data: Record<string, unknown>, options: EInvoiceRenderOptions, pdfOptions: ReturnType<typeof pdfOptionsSchema.parse>) {
    if (options.template_id !== undefined || options.store)
      throw new ApiError(
        'invalid_request',
        'options.template_id and options.store need a key: the admin window previews with Quire’s default view, uncharged and unkept.',
      );
    return this.deps.render.previewHtml(expandDefaultView(data), pdfOptions);
  }
}

/**
 * What a view template expands with: the inspection, the report of the rule set the invoice names as
 * `report`, and `payment_code` (its EPC QR code as SVG, or a note why none) when it asks for a SEPA transfer.
 */
export function viewData(inspection: SourcedInspection): Record<string, unknown> {
  return { ...inspection, report: inspection.rule_sets[inspection.rule_set], payment_code: einvoicePaymentCode(inspection.invoice) };
}

/** `rules=xrechnung; fatal=2; warnings=1; ids=...`: the verdict of the rule set BT-24 names, told as a render's. */
function inspectionHeader(inspection: EInvoiceInspection): string {
  const { fatal, warnings } = inspection.rule_sets[inspection.rule_set];
  return reportHeader({ rules: inspection.rule_set, fatal, warnings });
}

/** The original XML as the PDF's Source: under its name in the PDF it came from, else named by its syntax. */
function xmlAttachment(xml: string | Uint8Array, inspection: SourcedInspection) {
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : Buffer.from(xml);
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES)
    throw new ApiError(
      'invalid_request',
      `options.attach_xml: the XML is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB; an attached file may be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`,
    );
  const filename = inspection.source.kind === 'pdf' ? inspection.source.attachment : `invoice-${inspection.syntax.toLowerCase()}.xml`;
  return {
    filename,
    content: bytes.toString('base64'),
    mime_type: 'text/xml',
    relationship: 'Source',
    description: `The e-invoice (${inspection.syntax}${inspection.profile ? `, ${inspection.profile}` : ''}) this PDF shows`,
  };
}

/** An invoice number as a file name: letters, digits, dot, dash and underscore; the rest become dashes. */
function fileSafe(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').slice(0, 100) || 'e-invoice';
}
