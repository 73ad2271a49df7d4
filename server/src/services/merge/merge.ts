// The story of a merge: hold the allowance, check every source (stored documents, uploaded PDFs,
// things to render), render what needs rendering (one document of the allowance per
// rendered source, at least one per call), join the pages in order on the PDF worker, finish the
// result with the merge's options, keep and charge it as one produce step of RenderService.

import { ApiError } from '../../errors.ts';
import type { FinishOptions } from '../../pdf/finish-options.ts';
import { finishPdf, mergeInWorker, pageCountOf, readLayoutInWorker } from '../../pdf/finisher.ts';
import { selectPages } from '../../pdf/page-list.ts';
import type { HeadsOnPdf } from '../../render/heads-on-pdf.ts';
import { numberAcross } from '../../render/numbering.ts';
import { DEFAULT_OFFICE_OPTIONS, splitOfficeOptions } from '../../office/office-options.ts';
import { pdfHeadsOf } from '../office/pdf-heads.ts';
import { MergeSourceError } from '../../pdf/merge-errors.ts';
import type { MergePart } from '../../pdf/pdf-task.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../render/pdf-options.ts';
import type { RenderSource } from '../../render/render-source.ts';
import type { PrintedBody } from '../../render/render-job.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { Tenant } from '../../render/render-slots.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import { readPdfInput, type PdfInputDeps } from '../pdf-tools/pdf-input.ts';
import type { Account } from '../accounts/keys.ts';
import { tenantOf, withReceipt, type RenderedPdf, type RenderService } from '../render/render.ts';
import type { RenderInput } from '../render/request.ts';
import { sourceSummary, type ReceiptsService } from '../accounts/receipts.ts';
import { titleOf, type OfficeConverter, type OfficeSource } from '../office/converter.ts';
import { OfficeUnavailableError } from '../../office/errors.ts';
import { mergeHeadsOf, tagged, taggedOffice, withMergeHeads, type MergeOptions } from './source-options.ts';
import { CHAPTER_LINK_PREFIX, chaptersOf, printMergeToc, type ChapterPart } from './toc.ts';

/** At most this many sources per call (each may be a render). */
export const MAX_MERGE_SOURCES = 50;

export type MergeSourceInput = (
  | { document_id: string; password?: string }
  | { pdf: Uint8Array; password?: string }
  | Omit<RenderInput, 'store' | 'filename'>
) & {
  page_ranges?: string;
  /** false: the merge's header and footer leave this source's pages as they are. */
  header_footer?: boolean;
  /** Its chapter's title in the merge's table of contents and bookmarks. */
  title?: string;
};

export type { MergeOptions } from './source-options.ts';

export interface MergeInput {
  sources: MergeSourceInput[];
  options?: MergeOptions;
  store?: boolean;
  filename?: string;
}

export interface MergeServiceDeps {
  renderer: Renderer;
  /** What a PDF source's streams may unpack to (PDF_STREAM_* settings). */
  decoded?: PdfInputDeps['decoded'];
  render: Pick<RenderService, 'resolveSource' | 'produce'>;
  documents: Pick<DocumentsService, 'open' | 'storageFor'>;
  receipts: ReceiptsService;
  /** Converts `office` sources; absent: they fail with office_unavailable. */
  office?: OfficeConverter;
}

/** A header and footer to draw on a source Quire did not lay out, once the merged page numbers are known. */
interface ForeignHeads {
  request: HeadsOnPdf;
  /** Names the source in errors about its bytes. */
  field: string;
  finish: FinishOptions;
  timeoutMs: number;
}

type Prepared =
  | { kind: 'bytes'; pdf: Uint8Array; pages?: string; heads?: ForeignHeads; name?: string }
  | { kind: 'render'; source: RenderSource; options: PdfOptions; data?: unknown; pages?: string; input: Omit<RenderInput, 'store' | 'filename'> }
  | { kind: 'office'; source: OfficeSource; pages?: string; heads?: ForeignHeads; finish: FinishOptions };

/**
 * A source ready to join: its bytes, or bytes waiting for the merged page numbers to draw their
 * header and footer on: a render's body, or (foreign) an office conversion, uploaded or stored PDF.
 */
type Part = ChapterPart & { body?: PrintedBody; foreign?: ForeignHeads };

/** Renders sources two at a time: the pool has few slots and other callers share them. */
const RENDER_CONCURRENCY = 2;

/** Runs `work` on every item, RENDER_CONCURRENCY at a time, answers in order. */
async function inTurn<T, R>(items: T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: RENDER_CONCURRENCY }, lane));
  return out;
}

/** What each rendered source's receipt needs to know of the call. */
interface MergeCall {
  account: Account;
  storing: boolean;
  /** The merged document's expiry when it is stored: its sources' receipts last as long. */
  expiresAt?: string;
  requestId?: string;
  receiptIds: string[];
}

export class MergeService {
  constructor(private readonly deps: MergeServiceDeps) {}

  /** One PDF of the sources' pages in order; a bad source is a 400 naming its index. */
  async merge(input: MergeInput, account: Account, requestId?: string): Promise<RenderedPdf> {
    const rendered = input.sources.filter((source) => !('document_id' in source) && !('pdf' in source)).length;
    const storage = this.deps.documents.storageFor(account, input.store);
    const call: MergeCall = {
      account,
      storing: storage !== undefined,
      expiresAt: storage && new Date(Date.now() + storage.retentionSeconds * 1000).toISOString(),
      requestId,
      receiptIds: [],
    };
    // As for a render, the allowance is held first (cheap refusals first); every source is then
    // checked before any is rendered, and any failure gives the hold back.
    const charge = {
      documents: Math.max(1, rendered),
      storage,
      source: 'merge' as const,
      filename: input.filename,
      output: { options: input.options, field: 'options' },
    };
    const whole = {
      requestId,
      keyId: account.keyId,
      kind: 'merge' as const,
      source: { type: 'merge' as const, sources: input.sources.length },
      options: input.options ?? {},
      wish: { asked: input.options?.receipt, mode: account.receipts, storing: storage !== undefined },
    };
    const { receiptId, ...merged } = await this.deps.receipts.record(whole, () =>
      this.deps.render.produce(account, charge, async () => {
        const prepared: Prepared[] = [];
        for (const [index, source] of input.sources.entries()) prepared.push(await this.prepare(source, index, account, input.options));
        const tenant = tenantOf(account);
        const rendered = (await this.renderParts(prepared, tenant, call)).map((part, index) => ({ ...part, title: input.sources[index]?.title }));
        // A table of contents is one more part, first, so the footers' numbers count its pages too.
        const {
          toc,
          header: _h,
          footer: _f,
          header_footer_fit: _fit,
          header_footer_margin: _margin,
          receipt: _receipt,
          pdf_ua,
          lang: _lang,
          ...finish
        } = input.options ?? {};
        const chapters = toc && (await chaptersOf(rendered));
        const joined = chapters ? [{ pdf: await printMergeToc(this.deps.renderer, toc, chapters, tenant) }, ...rendered] : rendered;
        const parts = await this.numberParts(joined, tenant);
        const titles = chapters && [toc.title || 'Contents', ...chapters.map((chapter) => chapter.title)];
        const structure = pdf_ua === 'PDF/UA-1'; // keep every source's structure tree (pdf/ua/merge-structure.ts)
        const chapterOptions = titles ? { outline: true, chapters: { titles, linkPrefix: CHAPTER_LINK_PREFIX } } : {};
        try {
          return await mergeInWorker(parts, { ...finish, structure, ...chapterOptions });
        } catch (error) {
          if (error instanceof MergeSourceError) throw new ApiError(error.reason === 'untagged' ? 'accessibility_failed' : 'invalid_request', error.message);
          throw error;
        }
      }),
    );
    // The merge's own receipt first, then one per rendered source.
    const receiptIds = [...(receiptId ? [receiptId] : []), ...call.receiptIds];
    return { ...merged, receiptIds: receiptIds.length > 0 ? receiptIds : undefined };
  }

  private async prepare(source: MergeSourceInput, index: number, account: Account, mergeOptions: MergeOptions | undefined): Promise<Prepared> {
    const mergeHeads = source.header_footer === false ? undefined : mergeHeadsOf(mergeOptions);
    const foreign = (request: HeadsOnPdf | undefined, finish: FinishOptions = {}, timeoutMs = DEFAULT_PDF_OPTIONS.timeout_ms): ForeignHeads | undefined =>
      request && { request, field: `sources[${index}]`, finish, timeoutMs };
    if ('document_id' in source || 'pdf' in source) {
      // Through the one gate every PDF input passes (limits, stream budget, repair) before any worker parses it.
      const input = 'pdf' in source ? { pdf: source.pdf, password: source.password } : { document_id: source.document_id, password: source.password };
      const { pdf, filename } = await readPdfInput(input, account, `sources[${index}]`, this.deps);
      return { kind: 'bytes', pdf, pages: source.page_ranges, heads: foreign(mergeHeads), name: filename && titleOf(filename) };
    }
    if ('office' in source && source.office !== undefined) {
      // Checked now (type, bytes, zip bomb), converted with the renders. Its own header and footer, else the merge's.
      const office = taggedOffice(source.office, mergeOptions);
      this.office().checkSource(office, `sources[${index}].office`);
      const { heads, finish, timeoutMs } = splitOfficeOptions(office.options ?? DEFAULT_OFFICE_OPTIONS);
      const title = titleOf(office.filename);
      const own = pdfHeadsOf(heads, { field: `sources[${index}].office.options`, data: office.data, title });
      const request = own ?? (mergeHeads && { ...mergeHeads, title });
      return { kind: 'office', source: office, pages: source.page_ranges, heads: foreign(request, finish, timeoutMs), finish };
    }
    return {
      kind: 'render',
      source: await this.deps.render.resolveSource(source, account),
      options: tagged(
        source.header_footer === false ? (source.options ?? DEFAULT_PDF_OPTIONS) : withMergeHeads(source.options ?? DEFAULT_PDF_OPTIONS, mergeOptions),
        mergeOptions,
      ),
      data: source.data,
      pages: source.page_ranges,
      input: source,
    };
  }

  private office(): OfficeConverter {
    if (!this.deps.office) throw new OfficeUnavailableError('this server was started without office conversion');
    return this.deps.office;
  }

  private async renderParts(prepared: Prepared[], tenant: Tenant, call: MergeCall): Promise<Part[]> {
    return inTurn(prepared, async (part) => {
      if (part.kind === 'bytes') return { pdf: part.pdf, pages: part.pages, foreign: part.heads, name: part.name };
      if (part.kind === 'office') {
        const office = this.office();
        const options = part.source.options ?? DEFAULT_OFFICE_OPTIONS;
        const pdf = await office.convert(office.checkSource(part.source), options, tenant, undefined, 'office.options');
        const name = titleOf(part.source.filename);
        return part.heads ? { pdf, pages: part.pages, foreign: part.heads, name } : { pdf: await finishPdf(pdf, part.finish), pages: part.pages, name };
      }
      const body = await this.renderSource(part, tenant, call);
      return { pdf: body.pdf, pages: part.pages, body: body.heads ? body : undefined };
    });
  }

  /** One rendered source's body, with its own receipt (kind merge_source) when the key keeps them. */
  private async renderSource(part: Extract<Prepared, { kind: 'render' }>, tenant: Tenant, call: MergeCall): Promise<PrintedBody> {
    const { receipts } = this.deps;
    const trace = receipts.traceFor({ asked: part.options.receipt, mode: call.account.receipts, storing: call.storing });
    const report = {
      trace,
      requestId: call.requestId,
      keyId: call.account.keyId,
      kind: 'merge_source' as const,
      source: sourceSummary(part.input),
      options: part.options,
      startedAt: performance.now(),
      expiresAt: call.expiresAt,
    };
    let body: PrintedBody;
    try {
      body = await this.deps.renderer.renderBody({ source: part.source, options: part.options, data: part.data, tenant, trace });
    } catch (error) {
      throw withReceipt(error, await receipts.finish({ ...report, error }));
    }
    const receiptId = await receipts.finish({ ...report, bytes: body.pdf });
    if (receiptId) call.receiptIds.push(receiptId);
    return body;
  }

  /**
   * Draws the header and footer of each source that has one, numbered across the merged document
   * (page, pages) and within its source (document_page, document_pages). Every source's kept
   * pages count, whether drawn on or not.
   */
  private async numberParts(parts: Part[], tenant: Tenant): Promise<MergePart[]> {
    if (!parts.some((part) => part.body || part.foreign)) return parts;
    const layouts = await Promise.all(parts.map((part) => (part.foreign ? readLayoutInWorker(part.pdf, part.foreign.field) : undefined)));
    const counts = await Promise.all(
      parts.map(async (part, index) => layouts[index]?.pages.length ?? part.body?.heads?.pageCount ?? (await pageCountOf(part.pdf))),
    );
    const numberings = numberAcross(
      parts.map((part, index) => {
        const count = counts[index]!;
        return { count, kept: part.pages ? selectPages(part.pages, count).indexes : [...Array(count).keys()] };
      }),
    );
    return inTurn(parts, async (part, index) => {
      const { body, foreign } = part;
      const numbering = numberings[index]!;
      if (body?.heads) return { pdf: await this.deps.renderer.decorate({ ...body, heads: body.heads }, numbering, tenant), pages: part.pages };
      if (foreign) {
        const { request, finish, timeoutMs } = foreign;
        return { pdf: await this.deps.renderer.decoratePdf(part.pdf, layouts[index]!, request, { numbering, timeoutMs, finish, tenant }), pages: part.pages };
      }
      return { pdf: part.pdf, pages: part.pages };
    });
  }
}
