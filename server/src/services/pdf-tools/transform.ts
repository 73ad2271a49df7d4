// The story of POST /v1/pdf/transform: take the PDF a user holds (pdf-input.ts), resolve the
// steps (given, or a preset's), run them in order (pdf/transform/pipeline.ts), put the toolbox
// options (metadata, watermark, header and footer, encryption) on each result, then keep and
// charge it through RenderService.produce, which also runs the final steps (PDF/A, attachments,
// signing). A call costs one document; a split kept as N documents costs N (docs/api.md).
// Batch items and the hot folder transform one PDF into one PDF through `one` (no split).
// Receipts record each step with its time and bytes, from the pipeline's own reports (the same
// ones X-Pdf-Steps shows), then the final steps'.

import { ApiError } from '../../errors.ts';
import type { FinishOptions } from '../../pdf/finish-options.ts';
import { finishPdf, zipInWorker } from '../../pdf/finisher.ts';
import { runSteps } from '../../pdf/transform/pipeline.ts';
import type { StepReport } from '../../shapes/transform-json.ts';
import type { PdfPart } from '../../pdf/transform/split.ts';
import type { TransformStep } from '../../pdf/transform/steps.ts';
import { DEFAULT_FOREIGN_HEADS } from '../../render/header-options.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { Account } from '../accounts/keys.ts';
import type { MergeOptions } from '../merge/merge.ts';
import type { OutputOptions, StepRecord } from '../output/steps.ts';
import { drawPdfHeads, pdfHeadsOf, type HeadsDrawer } from '../office/pdf-heads.ts';
import { readPdfInput, type PdfInput, type PdfInputBytes, type PdfInputDeps } from './pdf-input.ts';
import type { CallReport, ReceiptsService } from '../accounts/receipts.ts';
import { tenantOf, type Made, type ProduceCharge, type RenderContext, type RenderedPdf, type RenderService } from '../render/render.ts';

/** The options of the result: the merge's (toolbox, header and footer, final steps) without its outline and table of contents. */
export type TransformOptions = Omit<MergeOptions, 'outline' | 'toc'> & OutputOptions & { receipt?: boolean };

export interface TransformInput extends PdfInput {
  steps?: TransformStep[];
  preset_id?: string;
  options?: TransformOptions;
  store?: boolean;
}

export type TransformResult =
  | { kind: 'pdf'; result: RenderedPdf; steps: StepReport[] }
  | { kind: 'zip'; result: RenderedPdf; parts: string[]; steps: StepReport[] }
  | { kind: 'documents'; results: (RenderedPdf & { name: string; pages: number })[]; steps: StepReport[] };

/** How a transform runs beyond its request: a batch item's (stored under its id, charged with its tag, in its turn) or a call's id. */
export type TransformContext = Pick<RenderContext, 'batchItem' | 'reserveTurn' | 'requestId'>;

export interface TransformServiceDeps {
  documents: Pick<DocumentsService, 'open' | 'storageFor'>;
  /** What an input's streams may unpack to (PDF_STREAM_* settings). */
  decoded?: PdfInputDeps['decoded'];
  render: Pick<RenderService, 'produce' | 'finishUncharged'>;
  receipts: Pick<ReceiptsService, 'record'>;
  /** Draws options.header and options.footer (Chromium). */
  drawer: HeadsDrawer;
  /** A preset's steps for this key; throws 404 not_found for an unknown id. */
  presetSteps(keyId: string, presetId: string): Promise<TransformStep[]>;
}

/** The final steps' fields: they apply to a PDF, so not to a zip of parts. */
const FINAL_STEP_FIELDS = ['pdf_a', 'attachments', 'e_invoice', 'sign'] as const;

/** A header or footer drawn on a part Quire did not lay out gets this long (as a render's default budget). */
const HEADS_TIMEOUT_MS = 30_000;

/** One opened input and what to do with it. */
interface Job {
  input: TransformInput;
  opened: PdfInputBytes;
  steps: TransformStep[];
  account: Account;
  context: TransformContext;
  /** The admin window's PDF tools screen: any key's document, nothing charged, kept or receipted. */
  admin?: true;
}

/** The admin window's stand-in account: only its key id is read, and the admin's reader ignores it. */
const ADMIN_ACCOUNT = { keyId: '' } as Account;

export class TransformService {
  constructor(private readonly deps: TransformServiceDeps) {}

  /** The steps a request names: its own, or its preset's (404 preset_not_found). */
  async stepsOf(input: Pick<TransformInput, 'steps' | 'preset_id'>, account: Account): Promise<TransformStep[]> {
    return input.steps ?? this.deps.presetSteps(account.keyId, input.preset_id!);
  }

  /** The transformed PDF, a zip of its parts, or its parts kept as documents; refusals come before any charge. */
  async transform(input: TransformInput, account: Account, requestId?: string): Promise<TransformResult> {
    return this.run(input, await this.stepsOf(input, account), account, { requestId });
  }

  /**
   * The admin window's transform (its PDF tools screen): an upload or any key's stored document,
   * with steps, answered as a PDF or a zip; neither charged nor kept, like the admin's previews.
   */
  async transformAsAdmin(input: TransformInput & { steps: TransformStep[] }): Promise<TransformResult> {
    if (input.store) throw new ApiError('invalid_request', 'store: the admin window keeps nothing; transform with a key to keep the result.');
    if (input.steps.some((step) => step.op === 'split' && step.output === 'documents'))
      throw new ApiError('invalid_request', 'steps: the admin window keeps nothing, so a split answers a zip (output "zip").');
    return this.run(input, input.steps, ADMIN_ACCOUNT, {}, true);
  }

  private async run(input: TransformInput, steps: TransformStep[], account: Account, context: TransformContext, admin?: true): Promise<TransformResult> {
    const split = steps.find((step) => step.op === 'split');
    const options = input.options ?? {};
    keepsTags(steps, options, 'steps');
    if (split?.output === 'zip') {
      if (input.store) throw new ApiError('invalid_request', 'store keeps PDFs, not a zip: split with output "documents" to keep each part.');
      const final = FINAL_STEP_FIELDS.find((name) => options[name] !== undefined);
      if (final) throw new ApiError('invalid_request', `options.${final} applies to a PDF, not a zip of parts: split with output "documents".`);
    }
    if (!split) {
      const { result, steps: reports } = await this.single(input, steps, account, context, admin);
      return { kind: 'pdf', result, steps: reports };
    }
    const storage = admin ? undefined : this.deps.documents.storageFor(account, split.output === 'documents' ? true : input.store);
    const job: Job = { input, opened: await readPdfInput(input, account, '', this.readerFor(admin)), steps, account, context, admin };
    if (split.output === 'zip') {
      let reports: StepReport[] = [];
      let names: string[] = [];
      const zipName = `${nameOf(input, job.opened).replace(/\.pdf$/i, '')}.zip`;
      const result = await this.produced(
        job,
        { documents: 1, storage: undefined, filename: zipName },
        () => reports,
        async () => {
          const outcome = await runSteps(startOf(job), steps);
          reports = outcome.steps;
          names = outcome.parts.map((part) => part.name);
          const files = [];
          for (const part of outcome.parts) files.push({ name: part.name, data: await this.shape(job, part) });
          return zipInWorker(files);
        },
      );
      return { kind: 'zip', result, parts: names, steps: reports };
    }
    // Each part is a stored document like any render's: kept and charged together (one produce, and one receipt, each).
    const outcome = await runSteps(startOf(job), steps);
    const results: (RenderedPdf & { name: string; pages: number })[] = [];
    for (const part of outcome.parts) {
      const charge = { documents: 1, storage, source: 'transform' as const, filename: part.name, output: { options, field: 'options' } };
      const made = await this.produced(
        job,
        charge,
        () => outcome.steps,
        async () => ({ pdf: await this.shape(job, part), pages: part.pageCount }),
      );
      results.push({ ...made, name: part.name, pages: part.pageCount });
    }
    return { kind: 'documents', results, steps: outcome.steps };
  }

  /**
   * One PDF in, one PDF out, with no split (a batch item, a file of the hot folder): opened and
   * checked before anything is charged, then run, kept and charged as the route's single result.
   */
  async one(input: TransformInput, account: Account, context: TransformContext = {}): Promise<RenderedPdf> {
    const steps = await this.oneSteps(input, account, context.batchItem ? 'transform' : 'the transform');
    return (await this.single(input, steps, account, context)).result;
  }

  /** The steps of a one-PDF transform; a split (a preset's, as the schemas refuse a given one) is a 400 naming `where`. */
  async oneSteps(input: Pick<TransformInput, 'steps' | 'preset_id' | 'options'>, account: Account, where: string): Promise<TransformStep[]> {
    const steps = await this.stepsOf(input, account);
    const split = steps.findIndex((step) => step.op === 'split');
    const named = input.preset_id === undefined ? `${where}.steps[${split}]` : `${where}.preset_id ${input.preset_id} (its step ${split})`;
    if (split >= 0) throw new ApiError('invalid_request', `${named} splits, and this makes one PDF: split with POST /v1/pdf/transform.`);
    keepsTags(steps, input.options ?? {}, `${where}.steps`);
    return steps;
  }

  private async single(input: TransformInput, steps: TransformStep[], account: Account, context: TransformContext, admin?: true) {
    const storage = admin ? undefined : this.deps.documents.storageFor(account, context.batchItem ? true : input.store);
    const opened = await readPdfInput(input, account, context.batchItem ? 'transform' : '', this.readerFor(admin));
    const job: Job = { input, opened, steps, account, context, admin };
    const output = { options: input.options ?? {}, field: context.batchItem ? 'transform.options' : 'options' };
    const charge = {
      documents: 1,
      storage,
      source: 'transform' as const,
      filename: input.filename,
      output,
      batchItem: context.batchItem,
      reserveTurn: context.reserveTurn,
    };
    let reports: StepReport[] = [];
    const result = await this.produced(
      job,
      charge,
      () => reports,
      async () => {
        const outcome = await runSteps(startOf(job), steps);
        reports = outcome.steps;
        // The header and footer and the toolbox add no pages: the part's count is the result's.
        const part = outcome.parts[0]!;
        return { pdf: await this.shape(job, part), pages: part.pageCount };
      },
    );
    return { result, steps: reports };
  }

  /** produce, with the call's receipt: the transform's steps (read once they ran), then the final steps. */
  private async produced(job: Job, charge: ProduceCharge, reports: () => StepReport[], make: () => Promise<Made>): Promise<RenderedPdf> {
    const { input, account, context } = job;
    if (job.admin) {
      const final = await this.deps.render.finishUncharged(charge.output?.options, make);
      return { pdf: final.pdf, filename: charge.filename, headers: final.headers, steps: final.steps };
    }
    const options = input.options ?? {};
    const call: CallReport = {
      requestId: context.requestId,
      keyId: account.keyId,
      kind: context.batchItem ? 'batch_item' : 'transform',
      source: { type: 'pdf', filenames: [nameOf(input, job.opened)], document_id: input.document_id, preset_id: input.preset_id },
      options: { steps: job.steps, ...options },
      batch: context.batchItem && { batchId: context.batchItem.batchId, index: context.batchItem.index },
      wish: { asked: options.receipt, mode: account.receipts, storing: charge.storage !== undefined },
    };
    const { receiptId, ...made } = await this.deps.receipts.record(call, async () => {
      const result = await this.deps.render.produce(account, charge, make);
      return { ...result, steps: [...stepRecords(reports()), ...(result.steps ?? [])] };
    });
    return { ...made, receiptIds: receiptId ? [receiptId] : undefined };
  }

  /** Where the input's document_id is looked up: the key's own documents, or (the admin window) any key's. */
  private readerFor(admin?: true): PdfInputDeps {
    return admin ? { documents: { open: (_owner, id) => this.deps.documents.open(undefined, id) }, decoded: this.deps.decoded } : this.deps;
  }

  /** The toolbox options and the header and footer on one result. */
  private shape(job: Job, part: PdfPart): Promise<Uint8Array> {
    const options = job.input.options ?? {};
    const { header: _h, footer: _f, header_footer_fit: _fit, header_footer_margin: _margin, receipt: _r, ...finish } = options;
    const heads = pdfHeadsOf({ ...DEFAULT_FOREIGN_HEADS, ...options }, { field: 'options' });
    return heads
      ? drawPdfHeads(this.deps.drawer, part.pdf, heads, { timeoutMs: HEADS_TIMEOUT_MS, finish, tenant: job.admin ? undefined : tenantOf(job.account) })
      : finishPdf(part.pdf, finish as FinishOptions);
  }
}

/** The pipeline's reports as receipt step records: the same timings and sizes X-Pdf-Steps shows. */
export function stepRecords(reports: StepReport[]): StepRecord[] {
  return reports.map((report) => ({
    step: report.op,
    ms: report.ms,
    bytesBefore: report.bytes_before,
    bytesAfter: report.bytes_after,
    report: report.parts === undefined ? { pages: report.pages } : { pages: report.pages, parts: report.parts },
  }));
}

function nameOf(input: TransformInput, opened: PdfInputBytes): string {
  return input.filename ?? opened.filename ?? 'document.pdf';
}

function startOf(job: Job): PdfPart {
  return { pdf: job.opened.pdf, pageCount: job.opened.pageCount, name: nameOf(job.input, job.opened) };
}

/**
 * pdf_ua needs the input's structure tree after the steps: Ghostscript's pdfwrite (compress mode
 * images) writes a new file without one, so that pair is refused up front. The other steps keep it
 * (qpdf, pdf-lib); an input that had none is the UA step's own 400.
 */
function keepsTags(steps: TransformStep[], options: TransformOptions, where: string): void {
  if (options.pdf_ua === undefined) return;
  const index = steps.findIndex((step) => step.op === 'compress' && step.mode !== 'lossless');
  if (index >= 0)
    throw new ApiError(
      'invalid_request',
      `${where}[${index}] (compress, mode images) rewrites the file through Ghostscript, which drops its tags: with options.pdf_ua use mode "lossless".`,
    );
}
