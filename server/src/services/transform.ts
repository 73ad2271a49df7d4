// The story of POST /v1/pdf/transform: take the PDF a user holds (pdf-input.ts), resolve the
// steps (given, or a preset's), run them in order (pdf/transform/pipeline.ts), put the toolbox
// options (metadata, watermark, header and footer, encryption) on each result, then keep and
// charge it through RenderService.produce, which also runs the final steps (PDF/A, attachments,
// signing). A call costs one document; a split kept as N documents costs N (docs/api.md).

import { ApiError } from '../errors.ts';
import type { FinishOptions } from '../pdf/finish-options.ts';
import { finishPdf, zipInWorker } from '../pdf/finisher.ts';
import { runSteps, type StepReport } from '../pdf/transform/pipeline.ts';
import type { PdfPart } from '../pdf/transform/split.ts';
import type { TransformStep } from '../pdf/transform/steps.ts';
import { DEFAULT_FOREIGN_HEADS } from '../render/header-options.ts';
import type { DocumentsService } from './documents.ts';
import type { Account } from './keys.ts';
import type { MergeOptions } from './merge.ts';
import type { OutputOptions } from './output-steps.ts';
import { drawPdfHeads, pdfHeadsOf, type HeadsDrawer } from './pdf-heads.ts';
import { readPdfInput, type PdfInput } from './pdf-input.ts';
import { tenantOf, type RenderedPdf, type RenderService } from './render.ts';

/** The options of the result: the merge's (toolbox, header and footer, final steps) without its outline. */
export type TransformOptions = Omit<MergeOptions, 'outline'> & OutputOptions;

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

export interface TransformServiceDeps {
  documents: Pick<DocumentsService, 'open' | 'storageFor'>;
  render: Pick<RenderService, 'produce'>;
  /** Draws options.header and options.footer (Chromium). */
  drawer: HeadsDrawer;
  /** A preset's steps for this key; throws 404 not_found for an unknown id. */
  presetSteps(keyId: string, presetId: string): Promise<TransformStep[]>;
}

/** The final steps' fields: they apply to a PDF, so not to a zip of parts. */
const FINAL_STEP_FIELDS = ['pdf_a', 'attachments', 'e_invoice', 'sign'] as const;

/** A header or footer drawn on a part Quire did not lay out gets this long (as a render's default budget). */
const HEADS_TIMEOUT_MS = 30_000;

export class TransformService {
  constructor(private readonly deps: TransformServiceDeps) {}

  /** The transformed PDF, a zip of its parts, or its parts kept as documents; refusals come before any charge. */
  async transform(input: TransformInput, account: Account): Promise<TransformResult> {
    const steps = input.steps ?? (await this.deps.presetSteps(account.keyId, input.preset_id!));
    const split = steps.find((step) => step.op === 'split');
    const options = input.options ?? {};
    if (split?.output === 'zip') {
      if (input.store) throw new ApiError('invalid_request', 'store keeps PDFs, not a zip: split with output "documents" to keep each part.');
      const final = FINAL_STEP_FIELDS.find((name) => options[name] !== undefined);
      if (final) throw new ApiError('invalid_request', `options.${final} applies to a PDF, not a zip of parts: split with output "documents".`);
    }
    const storage = this.deps.documents.storageFor(account, split?.output === 'documents' ? true : input.store);
    const opened = await readPdfInput(input, account, '', this.deps);
    const name = input.filename ?? 'document.pdf';
    const start: PdfPart = { pdf: opened.pdf, pageCount: opened.pageCount, name };
    const { header: _h, footer: _f, header_footer_fit: _fit, header_footer_margin: _margin, ...finish } = options;
    const heads = pdfHeadsOf({ ...DEFAULT_FOREIGN_HEADS, ...options }, { field: 'options' });
    const shape = async (part: PdfPart): Promise<Uint8Array> =>
      heads
        ? drawPdfHeads(this.deps.drawer, part.pdf, heads, { timeoutMs: HEADS_TIMEOUT_MS, finish, tenant: tenantOf(account) })
        : finishPdf(part.pdf, finish as FinishOptions);
    const output = { options, field: 'options' };
    if (!split) {
      let reports: StepReport[] = [];
      const result = await this.deps.render.produce(account, { documents: 1, storage, filename: input.filename, output }, async () => {
        const outcome = await runSteps(start, steps);
        reports = outcome.steps;
        return shape(outcome.parts[0]!);
      });
      return { kind: 'pdf', result, steps: reports };
    }
    if (split.output === 'zip') {
      let reports: StepReport[] = [];
      let names: string[] = [];
      const zipName = `${name.replace(/\.pdf$/i, '')}.zip`;
      const result = await this.deps.render.produce(account, { documents: 1, storage: undefined, filename: zipName }, async () => {
        const outcome = await runSteps(start, steps);
        reports = outcome.steps;
        names = outcome.parts.map((part) => part.name);
        const files = [];
        for (const part of outcome.parts) files.push({ name: part.name, data: await shape(part) });
        return zipInWorker(files);
      });
      return { kind: 'zip', result, parts: names, steps: reports };
    }
    // Each part is a stored document like any render's: kept and charged together (one produce each).
    const outcome = await runSteps(start, steps);
    const results: (RenderedPdf & { name: string; pages: number })[] = [];
    for (const part of outcome.parts) {
      const made = await this.deps.render.produce(account, { documents: 1, storage, filename: part.name, output }, () => shape(part));
      results.push({ ...made, name: part.name, pages: part.pageCount });
    }
    return { kind: 'documents', results, steps: outcome.steps };
  }
}
