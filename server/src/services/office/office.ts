// The story of an office conversion: check every file (type, bytes, zip bomb) before anything is
// charged, hold one document of the allowance per file, convert each on the warm LibreOffice pool
// in the key's fair slot, join them when asked, apply the toolbox (metadata, watermark, encrypt),
// draw a header and footer when asked, keep the copy and count it (RenderService.produce). The
// conversion itself is OfficeConverter (converter.ts).

import { ApiError } from '../../errors.ts';
import type { OfficeOptions } from '../../office/office-options.ts';
import { splitOfficeOptions } from '../../office/office-options.ts';
import { finishPdf, mergeInWorker, readLayoutInWorker } from '../../pdf/finisher.ts';
import type { HeadsOnPdf } from '../../render/heads-on-pdf.ts';
import { numberAcross } from '../../render/numbering.ts';
import type { RenderPriority, Tenant } from '../../render/render-slots.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { FinalOutput } from '../output/steps.ts';
import type { Account } from '../accounts/keys.ts';
import { pdfNameOf, titleOf, type CheckedFile, type OfficeConverter, type OfficeFile } from './converter.ts';
import { drawPdfHeads, pdfHeadsOf } from './pdf-heads.ts';
import { tenantOf, type RenderedPdf, type RenderService } from '../render/render.ts';
import type { ReceiptsService } from '../accounts/receipts.ts';

export type { OfficeFile };

/** A call of POST /v1/convert/office. */
export interface OfficeRequest {
  files: OfficeFile[];
  options: OfficeOptions;
  /** Values for the placeholders of options.header and options.footer. */
  data?: unknown;
  /** Several files become one PDF only when asked. */
  merge: boolean;
  store?: boolean;
  /** The name of the PDF (Content-Disposition, the stored copy). Default: the first file's name with .pdf. */
  output_filename?: string;
}

export interface OfficeServiceDeps {
  converter: OfficeConverter;
  render: Pick<RenderService, 'produce' | 'finishUncharged'>;
  documents: Pick<DocumentsService, 'storageFor'>;
  /** Every conversion's end (the Activity screen) and its receipt, when one is kept. */
  receipts: Pick<ReceiptsService, 'record'>;
}

/** POST /v1/convert/office. */
export class OfficeService {
  constructor(private readonly deps: OfficeServiceDeps) {}

  /** Converts the request's files to one PDF, charged one document per file; a failure charges nothing. */
  async convert(input: OfficeRequest, account: Account, requestId?: string): Promise<RenderedPdf> {
    const { checked, make } = this.prepare(input, tenantOf(account));
    const storage = this.deps.documents.storageFor(account, input.store);
    const filename = input.output_filename ?? pdfNameOf(checked[0]!.filename);
    const call = {
      requestId,
      keyId: account.keyId,
      kind: 'office' as const,
      source: { type: 'office' as const, filenames: input.files.map((file) => file.filename) },
      options: { ...input.options, merge: input.merge },
      wish: { asked: input.options.receipt, mode: account.receipts, storing: storage !== undefined },
    };
    const charge = { documents: checked.length, storage, source: 'office' as const, filename, output: { options: input.options, field: 'options' } };
    const { receiptId, ...made } = await this.deps.receipts.record(call, () => this.deps.render.produce(account, charge, make));
    return { ...made, receiptIds: receiptId ? [receiptId] : undefined };
  }

  /** The admin window's preview: the same conversion, neither stored nor charged (the admin's own tenant in the slots). */
  async preview(input: OfficeRequest): Promise<FinalOutput> {
    if (input.store) throw new ApiError('invalid_request', 'A preview is never stored: leave store out.');
    const { make } = this.prepare(input, { id: 'admin', concurrency: 1 });
    return this.deps.render.finishUncharged(input.options, make);
  }

  /** Draws each converted file's header and footer, its pages numbered as they follow one another in the joined PDF. */
  private async drawAcross(
    pdfs: Uint8Array[],
    requestFor: (index: number) => HeadsOnPdf,
    job: { timeoutMs: number; tenant: Tenant; priority: RenderPriority },
  ): Promise<Uint8Array[]> {
    const layouts = await Promise.all(pdfs.map((pdf, index) => readLayoutInWorker(pdf, `files[${index}]`)));
    const numberings = numberAcross(layouts.map((layout) => ({ count: layout.pages.length, kept: [...layout.pages.keys()] })));
    const drawer = this.deps.converter.headsDrawer();
    const out: Uint8Array[] = [];
    for (const [index, pdf] of pdfs.entries())
      out.push(await drawer.decoratePdf(pdf, layouts[index]!, requestFor(index), { ...job, numbering: numberings[index]!, finish: {} }));
    return out;
  }

  /** Checks every file (before any charge) and returns the conversion to run. */
  private prepare(input: OfficeRequest, tenant: Tenant): { checked: CheckedFile[]; make: () => Promise<Uint8Array> } {
    const { converter } = this.deps;
    converter.requireAvailable();
    if (input.files.length === 0)
      throw new ApiError('invalid_request', 'Send the file to convert: a multipart part named file, or file (base64) with filename in JSON.');
    if (input.files.length > 1 && !input.merge)
      throw new ApiError('invalid_request', `${input.files.length} files were sent: send merge: true to join them into one PDF, or one file per call.`);
    const where = (index: number) => (input.files.length > 1 ? `files[${index}]` : undefined);
    const checked = input.files.map((file, index) => converter.check(file, where(index)));
    const { finish, heads, timeoutMs } = splitOfficeOptions(input.options);
    const headsOf = (index: number) => pdfHeadsOf(heads, { field: 'options', data: input.data, title: titleOf(checked[index]!.filename) });
    const make = async () => {
      const pdfs: Uint8Array[] = [];
      // One after another: the key's fair share of the pool is one slot at a time anyway.
      for (const [index, file] of checked.entries()) pdfs.push(await converter.convert(file, input.options, tenant, 'interactive', where(index)));
      const job = { timeoutMs, tenant, priority: 'interactive' as const };
      if (pdfs.length === 1) {
        const request = headsOf(0);
        return request ? drawPdfHeads(converter.headsDrawer(), pdfs[0]!, request, { ...job, finish }) : finishPdf(pdfs[0]!, finish);
      }
      // Several files: each its own header and footer (its title, its document_page), numbered across the joined PDF.
      const parts = headsOf(0) ? await this.drawAcross(pdfs, (index) => headsOf(index)!, job) : pdfs;
      return mergeInWorker(
        parts.map((pdf) => ({ pdf })),
        finish,
      );
    };
    return { checked, make };
  }
}
