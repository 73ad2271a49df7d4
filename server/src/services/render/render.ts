// The story of one render request: pick the source, check it, hold one document of the month's
// allowance, render it, then count the document or give it back. Routes and the batch worker
// both call this, so interactive and background renders share one path.

import { checkUrl, parseHttpUrl } from '../../guard/url-check.ts';
import type { Resolver } from '../../guard/dns-resolver.ts';
import type { AddressPolicy } from '../../guard/address-policy.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../render/pdf-options.ts';
import type { RenderSource } from '../../render/render-source.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { Tenant } from '../../render/render-slots.ts';
import type { Reservation, UsageLedger, UsageSnapshot } from '../../accounts/usage.ts';
import type { Account } from '../accounts/keys.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { TemplatesService } from '../templates/templates.ts';
import type { RenderCommit } from '../../stores/render-commit.ts';
import { checkHtmlSize, checkMarkdownSize, checkSourceFields } from './source-rules.ts';
import { convertMarkdown } from '../markdown/convert.ts';
import { drawElements } from './document-elements.ts';
import type { OfficeConverter } from '../office/converter.ts';
import type { RenderInput, SourceInput } from './request.ts';
import { OfficeUnavailableError } from '../../office/errors.ts';
import { ApiError } from '../../errors.ts';
import { sourceSummary, withReceipt, type ReceiptsService } from '../accounts/receipts.ts';
import { inSpan } from '../../telemetry/spans.ts';
import type { Made, ProduceCharge, RenderContext } from './context.ts';
import { bytesOf, keptCopy } from './kept-copy.ts';

export type { Made, ProduceCharge, RenderContext } from './context.ts';
import { OutputSteps, type FinalOutput, type OutputOptions, type StepContext, type StepRecord } from '../output/steps.ts';

export interface RenderedPdf {
  pdf: Uint8Array;
  filename?: string;
  /** The account's usage with this document counted (metered renders). */
  usage?: UsageSnapshot;
  /** The stored copy (store: true or auto_store), on disk before this returns. */
  documentId?: string;
  /** When the stored copy expires (its receipt lasts as long). */
  expiresAt?: string;
  /** The render's receipt (X-Render-Receipt), when one was kept: one per rendered source of a merge. */
  receiptIds?: string[];
  /** Response headers the final steps added (services/output/steps.ts). */
  headers?: Record<string, string>;
  /** What each final step did, for the receipt. */
  steps?: StepRecord[];
}

// Where a failed render's error names its receipt: accounts/receipts.ts (re-exported for the callers that render).
export { receiptOfError, withReceipt } from '../accounts/receipts.ts';

export interface RenderServiceDeps {
  renderer: Renderer;
  meter: UsageLedger;
  policy: AddressPolicy;
  resolve?: Resolver;
  templates: TemplatesService;
  documents: DocumentsService;
  /** Keeps a render's copy and counts it, as one unit of work. */
  commit: RenderCommit;
  /** NETWORK_GUARD: false only for trusted content and benchmarks (no address checks; other schemes than http(s) stay refused). */
  guardEnabled?: boolean;
  /** Converts `office` sources (LibreOffice); absent or unavailable: they fail with office_unavailable. */
  office?: OfficeConverter;
  /** Told about every count written (the admin event stream). */
  onUsage?: (keyId: string, usage: UsageSnapshot) => void;
  /** Every render's end (the activity feed) and its receipt, when one is kept. */
  receipts: ReceiptsService;
  /** Attachments, PDF/A, signing: run on every output after it is made (services/output/steps.ts). */
  outputSteps?: OutputSteps;
}

export class RenderService {
  constructor(private readonly deps: RenderServiceDeps) {}

  /**
   * Renders a validated request to PDF bytes for an account. Throws QuotaExceededError when the
   * month's allowance is used up; a render that fails is not charged.
   */
  render(input: RenderInput, account: Account, context: RenderContext = {}): Promise<RenderedPdf> {
    const attributes = { 'quire.source': sourceSummary(input).type, 'quire.key_id': account.keyId, 'quire.batch_id': context.batchItem?.batchId ?? '' };
    return inSpan('render', attributes, () => this.renderOne(input, account, context));
  }

  private async renderOne(input: RenderInput, account: Account, context: RenderContext): Promise<RenderedPdf> {
    const { batchItem } = context;
    checkSourceFields(input);
    const storage = this.deps.documents.storageFor(account, batchItem ? true : input.store);
    if (input.office) this.office().checkSource(input.office);
    const stepContext = { account, field: input.office ? 'office.options' : 'options', data: input.template_id !== undefined ? input.data : undefined };
    // An office source carries its own options (pdf_a, encrypt): the final steps read those.
    const outputOptions: OutputOptions | undefined = input.office ? input.office.options : input.options;
    await this.steps().check(outputOptions, stepContext);
    // Cheap refusals first (issue 11): the allowance is held before any template expansion or
    // DNS lookup, so a key past its month costs the server nothing but this check.
    await context.reserveTurn?.ready;
    const reservation = await this.deps.meter.reserve(account.keyId, account.plan).finally(() => context.reserveTurn?.done());
    const options = input.options ?? DEFAULT_PDF_OPTIONS;
    const startedAt = performance.now();
    const trace = this.deps.receipts.traceFor({ asked: options.receipt, mode: account.receipts, storing: storage !== undefined });
    const report = {
      trace,
      requestId: context.requestId,
      keyId: account.keyId,
      kind: batchItem ? ('batch_item' as const) : ('pdf' as const),
      source: sourceSummary(input),
      options,
      startedAt,
      batch: batchItem && { batchId: batchItem.batchId, index: batchItem.index },
    };
    let made: Uint8Array;
    let pdf: Uint8Array;
    let final: FinalOutput;
    try {
      const word =
        input.template_id !== undefined ? await this.deps.templates.wordTemplate(account.keyId, input.template_id, input.template_version) : undefined;
      if (input.office) {
        made = await this.office().convertSource(input.office, tenantOf(account), context.priority);
      } else if (word) {
        // A Word template is filled and converted by LibreOffice, then takes the same final steps.
        made = await this.deps.templates.wordPdf({ ...word, data: input.data, options: input.options, tenant: tenantOf(account), priority: context.priority });
      } else {
        const source = await this.resolveSource(input, account);
        made = await this.deps.renderer.render({ source, options, priority: context.priority, tenant: tenantOf(account), data: input.data, trace });
      }
      final = await this.steps().run(made, outputOptions, stepContext);
      pdf = final.pdf;
    } catch (error) {
      await reservation.release();
      throw withReceipt(error, await this.deps.receipts.finish({ ...report, error }));
    }
    // docs/api.md#rendering-post-v1pdf and #plans-and-usage: the copy and the count are durable
    // before the response that reports them, and
    // committed as one unit (stores/render-commit.ts): a copy that cannot be kept fails the
    // render, uncharged. A batch item's charge tag goes with them (services/batches/items.ts).
    const source = input.office ? ('office' as const) : ('render' as const);
    const document = await keptCopy(this.deps.documents, account, storage, { pdf, made, source, filename: input.filename }, batchItem);
    let usage: UsageSnapshot;
    try {
      ({ usage } = await inSpan('store', { 'quire.stored': document !== undefined }, () =>
        this.deps.commit.commit({
          reservation,
          document,
          chargeTag: batchItem?.chargeTag,
          batchItem: batchItem && { batchId: batchItem.batchId, index: batchItem.index },
        }),
      ));
    } catch (error) {
      throw withReceipt(error, await this.deps.receipts.finish({ ...report, error }));
    }
    const documentId = document?.record.id;
    this.deps.onUsage?.(account.keyId, usage);
    const receiptId = await this.deps.receipts.finish({ ...report, bytes: pdf, documentId, expiresAt: document?.record.expiresAt, steps: final.steps });
    return {
      pdf,
      filename: input.filename,
      usage,
      documentId,
      receiptIds: receiptId ? [receiptId] : undefined,
      headers: final.headers,
      steps: final.steps,
    };
  }

  /**
   * The charged part of a merge or an image: holds `documents` of the allowance (cheap refusals
   * first), makes the bytes, then keeps the copy (when storage is given) and counts every hold as
   * one unit of work (stores/render-commit.ts). A failure at any step gives the holds back, so a
   * failed call is never charged.
   */
  async produce(account: Account, charge: ProduceCharge, make: () => Promise<Made>): Promise<RenderedPdf> {
    const stepContext = { account, field: charge.output?.field ?? 'options' };
    await this.steps().check(charge.output?.options, stepContext);
    const holds: Reservation[] = [];
    let made: Made;
    let pdf: Uint8Array;
    let final: FinalOutput;
    try {
      await charge.reserveTurn?.ready;
      for (let i = 0; i < charge.documents; i++)
        holds.push(await this.deps.meter.reserve(account.keyId, account.plan).finally(() => charge.reserveTurn?.done()));
      made = await make();
      final = await this.steps().run(bytesOf(made), charge.output?.options, stepContext);
      pdf = final.pdf;
    } catch (error) {
      await Promise.all(holds.map((hold) => hold.release()));
      throw error;
    }
    const { batchItem } = charge;
    // A charge that keeps its output names its source (context.ts), so 'render' is never used here.
    const output = { pdf, made, source: charge.source ?? ('render' as const), filename: charge.filename };
    const document = await keptCopy(this.deps.documents, account, charge.storage, output, batchItem);
    const [first, ...others] = holds as [Reservation, ...Reservation[]];
    const batch = batchItem && { batchId: batchItem.batchId, index: batchItem.index };
    const { usage } = await inSpan('store', { 'quire.stored': document !== undefined }, () =>
      this.deps.commit.commit({ reservation: first, also: others, document, chargeTag: batchItem?.chargeTag, batchItem: batch }),
    );
    this.deps.onUsage?.(account.keyId, usage);
    return {
      pdf,
      filename: charge.filename,
      usage,
      documentId: document?.record.id,
      expiresAt: document?.record.expiresAt,
      headers: final.headers,
      steps: final.steps,
    };
  }

  /** The final steps on an output neither charged nor kept (the playground, previews; a template preview gives its data): refusals first, then the steps. */
  async finishUncharged(options: OutputOptions | undefined, make: () => Promise<Made>, given: Partial<StepContext> = {}): Promise<FinalOutput> {
    const context = { account: PREVIEW_ACCOUNT, field: 'options', ...given };
    await this.steps().check(options, context);
    return this.steps().run(bytesOf(await make()), options, context);
  }

  /** HTML rendered for the admin window, with the final steps, neither charged nor kept (the E-invoices screen's readable view). */
  async previewHtml(html: string, options: PdfOptions): Promise<FinalOutput> {
    return this.finishUncharged(options, async () => this.deps.renderer.render({ source: { kind: 'html', html: await drawElements(html) }, options }));
  }

  private steps(): OutputSteps {
    return this.deps.outputSteps ?? NO_STEPS;
  }

  private office(): OfficeConverter {
    if (!this.deps.office) throw new OfficeUnavailableError('this server was started without office conversion');
    return this.deps.office;
  }

  /**
   * Works out what to load: exactly one of html, url, markdown, template_id (docs/api.md#rendering-post-v1pdf: conflicting_source).
   * `resolve` replaces the guard's resolver (the playground's first pass uses one that does no DNS).
   */
  async resolveSource(input: SourceInput, account: Account, resolver?: Resolver): Promise<RenderSource> {
    checkSourceFields(input);
    if (input.office !== undefined)
      throw new ApiError('invalid_request', 'An office file is converted to PDF, not rendered here: use POST /v1/convert/office.');
    if (input.template_id !== undefined) {
      return this.deps.templates.source(account.keyId, input.template_id, input.data, input.template_version, input.options);
    }
    if (input.markdown !== undefined) {
      // Bounded by the 5 MB ceiling on both sides; a large text is converted off the event loop.
      const markdown = await convertMarkdown(checkMarkdownSize(input.markdown), { ...input.options, filename: input.filename });
      return { kind: 'html', html: await drawElements(checkHtmlSize(markdown), input.data) };
    }
    if (input.url !== undefined) {
      const { policy, guardEnabled = true } = this.deps;
      const resolve = resolver ?? this.deps.resolve;
      // Even with the guard off only http(s) is loaded: never file: or chrome: pages.
      if (!guardEnabled) return { kind: 'url', url: parseHttpUrl(input.url).href };
      const url = await checkUrl(input.url, policy, resolve);
      // The egress proxy refuses a redirect to a blocked address; this makes the render fail as
      // url_blocked (docs/api.md#network-guard) rather than as a page that could not be loaded.
      const checkRedirect = async (target: string) => void (await checkUrl(target, policy, resolve));
      return { kind: 'url', url: url.href, checkRedirect };
    }
    return { kind: 'html', html: await drawElements(checkHtmlSize(input.html!), input.data) };
  }
}

const NO_STEPS = new OutputSteps();

/** Whom the admin's previews run as: no key's, nothing charged or kept. */
const PREVIEW_ACCOUNT = Object.freeze({ keyId: 'admin', name: 'admin preview', autoStore: false }) as unknown as Account;

/** Who a render is for, as the render slots share them out (render-slots.ts). */
export function tenantOf(account: Account): Tenant {
  return { id: account.keyId, concurrency: account.plan.concurrency };
}
