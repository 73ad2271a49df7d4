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
import { readPdfInput, type PdfInput, type PdfInputDeps } from './pdf-input.ts';
import { tenantOf, type ProduceCharge, type RenderedPdf, type RenderService } from './render.ts';
import type { Tenant } from '../render/render-slots.ts';

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
  render: Pick<RenderService, 'produce' | 'finishUncharged'>;
  /** Draws options.header and options.footer (Chromium). */
  drawer: HeadsDrawer;
  /** A preset's steps for this key; throws 404 not_found for an unknown id. */
  presetSteps(keyId: string, presetId: string): Promise<TransformStep[]>;
}

/** The final steps' fields: they apply to a PDF, so not to a zip of parts. */
const FINAL_STEP_FIELDS = ['pdf_a', 'attachments', 'e_invoice', 'sign'] as const;

/** A header or footer drawn on a part Quire did not lay out gets this long (as a render's default budget). */
const HEADS_TIMEOUT_MS = 30_000;

/** Who a transform is for: how its input is read, how each result is made (charged or not), whose render slots draw heads. */
interface TransformFor {
  account: Account;
  reader: PdfInputDeps;
  produce: (charge: ProduceCharge, make: () => Promise<Uint8Array>) => Promise<RenderedPdf>;
  tenant?: Tenant;
}

/** readPdfInput's account for the admin window: only its key id is read, and the admin's reader ignores it. */
const ADMIN_ACCOUNT = { keyId: '' } as Account;

export class TransformService {
  constructor(private readonly deps: TransformServiceDeps) {}

  /** The transformed PDF, a zip of its parts, or its parts kept as documents; refusals come before any charge. */
  async transform(input: TransformInput, account: Account): Promise<TransformResult> {
    const steps = input.steps ?? (await this.deps.presetSteps(account.keyId, input.preset_id!));
    const split = steps.find((step) => step.op === 'split');
    const storage = () => this.deps.documents.storageFor(account, split?.output === 'documents' ? true : input.store);
    return this.run(input, steps, storage, {
      account,
      reader: this.deps,
      produce: (charge, make) => this.deps.render.produce(account, charge, make),
      tenant: tenantOf(account),
    });
  }

  /**
   * The admin window's transform (its PDF tools screen): an upload or any key's stored document,
   * with steps, answered as a PDF or a zip; neither charged nor kept, like the admin's previews.
   */
  async transformAsAdmin(input: TransformInput & { steps: TransformStep[] }): Promise<TransformResult> {
    if (input.store) throw new ApiError('invalid_request', 'store: the admin window keeps nothing; transform with a key to keep the result.');
    if (input.steps.some((step) => step.op === 'split' && step.output === 'documents'))
      throw new ApiError('invalid_request', 'steps: the admin window keeps nothing, so a split answers a zip (output "zip").');
    const reader: PdfInputDeps = { documents: { open: (_owner, id) => this.deps.documents.open(undefined, id) } };
    return this.run(input, input.steps, () => undefined, {
      account: ADMIN_ACCOUNT,
      reader,
      produce: async (charge, make) => {
        const final = await this.deps.render.finishUncharged(charge.output?.options, make);
        return { pdf: final.pdf, filename: charge.filename, headers: final.headers, steps: final.steps };
      },
    });
  }

  /** `storageOf` is asked after the cheap refusals of a zip, as it may refuse too. */
  private async run(input: TransformInput, steps: TransformStep[], storageOf: () => ProduceCharge['storage'], as: TransformFor): Promise<TransformResult> {
    const split = steps.find((step) => step.op === 'split');
    const options = input.options ?? {};
    if (split?.output === 'zip') {
      if (input.store) throw new ApiError('invalid_request', 'store keeps PDFs, not a zip: split with output "documents" to keep each part.');
      const final = FINAL_STEP_FIELDS.find((name) => options[name] !== undefined);
      if (final) throw new ApiError('invalid_request', `options.${final} applies to a PDF, not a zip of parts: split with output "documents".`);
    }
    const storage = storageOf();
    const opened = await readPdfInput(input, as.account, '', as.reader);
    const name = input.filename ?? 'document.pdf';
    const start: PdfPart = { pdf: opened.pdf, pageCount: opened.pageCount, name };
    const { header: _h, footer: _f, header_footer_fit: _fit, header_footer_margin: _margin, ...finish } = options;
    const heads = pdfHeadsOf({ ...DEFAULT_FOREIGN_HEADS, ...options }, { field: 'options' });
    const shape = async (part: PdfPart): Promise<Uint8Array> =>
      heads
        ? drawPdfHeads(this.deps.drawer, part.pdf, heads, { timeoutMs: HEADS_TIMEOUT_MS, finish, tenant: as.tenant })
        : finishPdf(part.pdf, finish as FinishOptions);
    const output = { options, field: 'options' };
    if (!split) {
      let reports: StepReport[] = [];
      const result = await as.produce({ documents: 1, storage, filename: input.filename, output }, async () => {
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
      const result = await as.produce({ documents: 1, storage: undefined, filename: zipName }, async () => {
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
      const made = await as.produce({ documents: 1, storage, filename: part.name, output }, () => shape(part));
      results.push({ ...made, name: part.name, pages: part.pageCount });
    }
    return { kind: 'documents', results, steps: outcome.steps };
  }
}
