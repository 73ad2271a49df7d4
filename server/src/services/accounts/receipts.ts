// Render receipts and the activity feed: every render the services run ends here once. Each one
// is announced on the event bus (render.completed: the admin window's Activity screen); a render
// that wanted a receipt also has its trace turned into one and kept (stores/receipts.ts) as long
// as its document, or RECEIPT_RETENTION_HOURS when nothing was stored. Owners read it back by id.

import { ApiError } from '../../errors.ts';
import type { EventBus, RenderActivity } from '../../events.ts';
import { newId } from '../../ids.ts';
import type { StepRecord } from '../output/steps.ts';
import { readPdfFacts } from '../../pdf/pdf-facts.ts';
import { countPages } from '../../pdf/page-count.ts';
import { RenderTrace } from '../../render/render-trace.ts';
import { settleWithin } from '../../render/settle-within.ts';
import type { ReceiptMode } from '../../stores/keys.ts';
import type { ReceiptRecord, ReceiptStore } from '../../stores/receipts.ts';
import { describeError } from '../../wire/error-mapping.ts';
import { currentTraceId, recordStages, telemetryOn } from '../../telemetry/spans.ts';
import { receiptBody, type ReceiptKind, type SourceSummary } from './receipt-body.ts';

/** How long an answer waits for its render's events to be sent (only a PostgreSQL that stopped answering takes it). */
const EVENTS_SENT_BOUND_MS = 5_000;

export interface ReceiptsServiceDeps {
  store: ReceiptStore;
  events: EventBus;
  /** Hours a receipt is kept when its render stored nothing (RECEIPT_RETENTION_HOURS). */
  retentionHours: number;
  /** Why the network guard last refused host:port (guard/egress-proxy.ts), when it is on. */
  refusalFor?: (host: string, port: number) => string | undefined;
  /** Names this instance in the activity feed (several instances share one stream on PostgreSQL). */
  instance: string;
  now?: () => Date;
  warn?: (details: Record<string, unknown>, message: string) => void;
}

/** What a service knows about one render when it ends. */
export interface RenderReport {
  /** The trace from traceFor; undefined when neither a receipt is kept nor OpenTelemetry on. */
  trace: RenderTrace | undefined;
  requestId?: string;
  keyId: string | null;
  kind: ReceiptKind;
  source: SourceSummary;
  options: object;
  /** performance.now() when the service took the render on. */
  startedAt: number;
  /** The bytes made (a PDF, or an image for kind image). */
  bytes?: Uint8Array;
  documentId?: string;
  /** The stored document's expiry: the receipt's too. */
  expiresAt?: string;
  batch?: { batchId: string; index: number };
  error?: unknown;
  /** The final steps the output took (services/output/steps.ts): PDF/A's conformance report among them. */
  steps?: StepRecord[];
}

/** What a call that is not a page render (an office conversion, a whole merge) tells record(). */
export interface CallReport extends Pick<RenderReport, 'requestId' | 'keyId' | 'kind' | 'source' | 'options' | 'batch'> {
  wish: ReceiptWish;
}

/** What such a call made: the bytes and, when kept, the stored copy and its expiry. */
export interface MadeOutput {
  pdf: Uint8Array;
  documentId?: string;
  expiresAt?: string;
  /** What each step did (a transform's, then the final steps): the receipt's steps. */
  steps?: StepRecord[];
}

/** Receipts ask their renders for these; each is on or off for the whole render. */
export interface ReceiptWish {
  /** options.receipt */
  asked?: boolean;
  /** The key's setting; null for renders without a key (the playground: only when asked). */
  mode: ReceiptMode | null;
  /** The render keeps a document. */
  storing: boolean;
}

export class ReceiptsService {
  private readonly now: () => Date;

  constructor(private readonly deps: ReceiptsServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A trace to render with: a detailed one when this render keeps a receipt, stage marks only for
   * the spans when OpenTelemetry is on, and none (nothing recorded) otherwise.
   */
  traceFor(wish: ReceiptWish): RenderTrace | undefined {
    const wanted = wish.asked === true || wish.mode === 'all' || (wish.mode === 'stored' && wish.storing);
    return wanted ? new RenderTrace() : telemetryOn() ? new RenderTrace(false) : undefined;
  }

  /**
   * Announces the render (render.completed) and, when it carried a trace, keeps its receipt;
   * resolves with the receipt's id. A receipt that cannot be kept costs the render nothing: it is
   * logged and the render goes on without one.
   */
  async finish(report: RenderReport): Promise<string | undefined> {
    const totalMs = performance.now() - report.startedAt;
    const error = report.error === undefined ? null : describeError(report.error);
    let receiptId: string | undefined;
    let pages: number | null = null;
    // The same marks as the receipt's timings_ms: spans under the current one, and the stage metric.
    const { trace } = report;
    if (trace && telemetryOn())
      recordStages(trace.stages().map(({ name, start, end }) => ({ name: `render.${name}`, start: trace.origin + start, end: trace.origin + end })));
    if (report.trace?.detail) {
      const facts = report.bytes && report.kind !== 'image' ? await readPdfFacts(report.bytes) : undefined;
      pages = facts?.pages ?? null;
      receiptId = await this.keep(report, report.trace, { totalMs, error, facts }).catch((failure: unknown) => {
        this.deps.warn?.({ err: failure }, 'a render receipt could not be kept');
        return undefined;
      });
    } else if (report.bytes && report.kind !== 'image') {
      pages = countPages(report.bytes) ?? null;
    }
    const activity: RenderActivity = {
      at: this.now().toISOString(),
      instance: this.deps.instance,
      key_id: report.keyId,
      kind: report.kind,
      source: report.source.type,
      status: error ? 'failed' : 'succeeded',
      code: error?.code ?? null,
      pages,
      ms: Math.round(totalMs),
      receipt_id: receiptId ?? null,
    };
    this.deps.events.publish('render.completed', activity);
    // Sent before the answer: the next call, to any instance, comes after it on every stream.
    // Bounded, so a PostgreSQL that stopped answering does not hold the answer.
    await settleWithin(this.deps.events.flush(), EVENTS_SENT_BOUND_MS);
    return receiptId;
  }

  /**
   * Runs `work` and reports its end like a render's (finish): on success with its bytes and
   * stored copy, on failure with the error, which then names the receipt (withReceipt). For the
   * calls that have no page of their own to trace: office conversions, whole merges.
   */
  async record<T extends MadeOutput>(call: CallReport, work: () => Promise<T>): Promise<T & { receiptId?: string }> {
    const { wish, ...facts } = call;
    const report = { ...facts, trace: this.traceFor(wish), startedAt: performance.now() };
    let made: T;
    try {
      made = await work();
    } catch (error) {
      throw withReceipt(error, await this.finish({ ...report, error }));
    }
    const receiptId = await this.finish({ ...report, bytes: made.pdf, documentId: made.documentId, expiresAt: made.expiresAt, steps: made.steps });
    return { ...made, receiptId };
  }

  /** A receipt of the calling key; 404 receipt_not_found for another key's, an expired or an unknown one. */
  async get(id: string, keyId: string): Promise<Record<string, unknown>> {
    const record = await this.find(id);
    if (!record || record.keyId !== keyId) throw notFound(id);
    return record.body;
  }

  /** Any receipt, for the admin. */
  async getForAdmin(id: string): Promise<Record<string, unknown>> {
    const record = await this.find(id);
    if (!record) throw notFound(id);
    return record.body;
  }

  /** A playground render's receipt: readable by whoever has its id (the page that made the render), no other. */
  async getForPlayground(id: string): Promise<Record<string, unknown>> {
    const record = await this.find(id);
    if (!record || record.keyId !== null || record.body.kind !== 'playground') throw notFound(id);
    return record.body;
  }

  /** Deletes receipts past their expiry (the retention sweeper). */
  prune(): Promise<number> {
    return this.deps.store.prune(this.now());
  }

  private async find(id: string): Promise<ReceiptRecord | undefined> {
    if (!/^rcp_[A-Za-z0-9]{1,64}$/.test(id)) return undefined;
    return this.deps.store.get(id, this.now());
  }

  private async keep(
    report: RenderReport,
    trace: RenderTrace,
    outcome: { totalMs: number; error: { code: string; detail: string } | null; facts: Awaited<ReturnType<typeof readPdfFacts>> },
  ): Promise<string> {
    const id = newId('rcp');
    const createdAt = this.now();
    const expiresAt = report.expiresAt ?? new Date(createdAt.getTime() + this.deps.retentionHours * 3_600_000).toISOString();
    const body = receiptBody(trace, {
      id,
      requestId: report.requestId ?? null,
      traceId: currentTraceId() ?? null,
      keyId: report.keyId,
      kind: report.kind,
      source: report.source,
      options: report.options as Record<string, unknown>,
      createdAt: createdAt.toISOString(),
      expiresAt,
      totalMs: outcome.totalMs,
      error: outcome.error,
      documentId: report.documentId ?? null,
      batch: report.batch ?? null,
      bytes: report.bytes?.byteLength ?? null,
      pdf: outcome.facts,
      steps: report.steps ?? [],
      refusalFor: (url) => this.refusalFor(url),
    });
    await this.deps.store.put({ id, keyId: report.keyId, createdAt: createdAt.toISOString(), expiresAt, body });
    return id;
  }

  private refusalFor(url: string): string | undefined {
    try {
      const parsed = new URL(url);
      const port = Number(parsed.port) || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80);
      return this.deps.refusalFor?.(parsed.hostname.replace(/^\[|\]$/g, ''), port);
    } catch {
      return undefined;
    }
  }
}

/** The source summary of a render request (receipts and the Activity table). */
export function sourceSummary(input: {
  html?: string;
  url?: string;
  markdown?: string;
  office?: unknown;
  template_id?: string;
  template_version?: number;
}): SourceSummary {
  if (input.template_id !== undefined) return { type: 'template', template_id: input.template_id, template_version: input.template_version };
  if (input.url !== undefined) return { type: 'url', url: input.url };
  if (input.markdown !== undefined) return { type: 'markdown' };
  if (input.office !== undefined) return { type: 'office' };
  return { type: 'html' };
}

/** A failed render's error carries its receipt's id, so the error response can name it too. */
export function withReceipt(error: unknown, receiptId: string | undefined): unknown {
  if (receiptId && error instanceof Error) Object.assign(error, { receiptId });
  return error;
}

/** The receipt id a failed render's error carries (withReceipt). */
export function receiptOfError(error: unknown): string | undefined {
  const id = (error as { receiptId?: unknown } | undefined)?.receiptId;
  return typeof id === 'string' ? id : undefined;
}

/** The path X-Render-Receipt names. */
export function receiptPath(id: string, kind: ReceiptKind = 'pdf'): string {
  return kind === 'playground' ? `/v1/playground/receipts/${id}` : `/v1/receipts/${id}`;
}

function notFound(id: string): ApiError {
  return new ApiError('receipt_not_found', `There is no receipt ${id} for this caller (receipts of other keys, and expired ones, are not shown).`);
}
