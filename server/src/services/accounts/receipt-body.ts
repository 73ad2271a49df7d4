// The receipt's JSON (docs/api.md#render-receipts, receipt_version 1), built from a render's trace
// and what the service knows about it. Secrets never reach it: query values whose names look like
// credentials and URL user info are masked, and the options' passwords, headers and cookies too.

import type { PdfFacts } from '../../pdf/pdf-facts.ts';
import type { StepRecord } from '../output/steps.ts';
import { STAGES, type RenderTrace } from '../../render/render-trace.ts';
import { RENDER_SITE, isRenderSiteUrl } from '../../render/render-document.ts';

export const RECEIPT_VERSION = 1;

export type ReceiptKind = 'pdf' | 'image' | 'merge' | 'merge_source' | 'office' | 'batch_item' | 'playground' | 'transform';

/** What was rendered, as the receipt and the Activity table name it. */
export interface SourceSummary {
  type: 'html' | 'url' | 'template' | 'markdown' | 'office' | 'merge' | 'pdf';
  url?: string;
  /** office: the files' names, as sent. */
  filenames?: string[];
  /** merge: how many sources were joined. */
  sources?: number;
  template_id?: string;
  template_version?: number;
  /** pdf (a transform): the stored document it read, and the preset whose steps it ran. */
  document_id?: string;
  preset_id?: string;
}

export interface ReceiptFacts {
  id: string;
  requestId: string | null;
  /** The OpenTelemetry trace the render ran in (null when tracing is off). */
  traceId: string | null;
  keyId: string | null;
  kind: ReceiptKind;
  source: SourceSummary;
  options: Record<string, unknown>;
  createdAt: string;
  expiresAt: string;
  totalMs: number;
  error: { code: string; detail: string } | null;
  documentId: string | null;
  batch: { batchId: string; index: number } | null;
  bytes: number | null;
  pdf: PdfFacts | undefined;
  /** A transform's steps (each with its pages and parts), then the final steps the output took, with what each reported (PDF/A: its conformance report). */
  steps: StepRecord[];
  /** Why the guard refused a blocked request's host, when it remembers (guard/egress-proxy.ts refusalFor). */
  refusalFor: (url: string) => string | undefined;
}

/** The receipt as GET /v1/receipts/{id} answers it. */
export function receiptBody(trace: RenderTrace, facts: ReceiptFacts): Record<string, unknown> {
  const requests = trace.requests.map((request) => ({
    method: request.method,
    url: shownUrl(request.url),
    type: request.resourceType,
    source: request.origin,
    status: request.status ?? null,
    // The guard's refusal body is not anything the page received.
    bytes: request.blocked ? null : request.bytes,
    start_ms: request.startMs,
    duration_ms: request.endMs === undefined ? null : round(request.endMs - request.startMs),
    failure: request.failure ?? null,
    blocked: request.blocked,
  }));
  const blocked = trace.requests
    .filter((request) => request.blocked)
    .map((request) => ({ url: shownUrl(request.url), reason: facts.refusalFor(request.url) ?? 'refused by the network guard (a private or denied address)' }));
  const warnings = [...trace.warnings, ...requestWarnings(trace), ...fontWarnings(trace, facts.pdf)];
  if (facts.error?.code === 'render_timeout' && trace.failedStage?.startsWith('waiting for ')) {
    warnings.unshift(`${trace.failedStage.slice('waiting for '.length)} never matched: check the selector or expression, or that the page makes it true`);
  }
  return {
    receipt_version: RECEIPT_VERSION,
    id: facts.id,
    request_id: facts.requestId,
    trace_id: facts.traceId,
    key_id: facts.keyId,
    kind: facts.kind,
    created_at: facts.createdAt,
    expires_at: facts.expiresAt,
    status: facts.error ? 'failed' : 'succeeded',
    error: facts.error,
    failed_stage: facts.error ? (trace.failedStage ?? null) : null,
    document_id: facts.documentId,
    batch_id: facts.batch?.batchId ?? null,
    batch_index: facts.batch?.index ?? null,
    source: { ...facts.source, ...(facts.source.url ? { url: maskUrl(facts.source.url) } : {}) },
    options: maskOptions(inForce(facts.options, trace.renderPath)),
    render_path: trace.renderPath ?? null,
    timings_ms: timings(trace, facts.totalMs),
    requests,
    requests_not_listed: trace.droppedRequests,
    blocked,
    console: trace.messages.map((message) => ({
      ...message,
      text: shownText(message.text),
      ...(message.url === undefined ? {} : { url: shownUrl(message.url) }),
    })),
    // An office conversion or a whole merge has no page whose styles could name a font.
    fonts: (facts.pdf?.fonts ?? []).map((font) => ({
      ...font,
      named_by_page: font.name === null || !hasPage(facts.kind) || facts.source.type === 'pdf' ? null : isNamedByPage(font.name, trace.fontFamilies),
    })),
    pages: facts.pdf ? { count: facts.pdf.pages, width_pt: facts.pdf.width, height_pt: facts.pdf.height } : null,
    bytes: facts.bytes,
    steps: facts.steps.map((step) => ({
      step: step.step,
      ms: step.ms,
      bytes_before: step.bytesBefore,
      bytes_after: step.bytesAfter,
      report: step.report ?? null,
    })),
    warnings,
  };
}

/**
 * The options as they applied to the page: wait_clock is the clock it ran on (render_path.clock).
 * wait_until other than networkidle0, an engine without the virtual clock and the desktop app run
 * on the wall clock whatever wait_clock says; the receipt must not claim otherwise (issue 39).
 */
function inForce(options: Record<string, unknown>, renderPath: RenderTrace['renderPath']): Record<string, unknown> {
  return renderPath && 'wait_clock' in options ? { ...options, wait_clock: renderPath.clock } : options;
}

/** Whether this kind of receipt comes from a page Quire loaded (not an office conversion, a whole merge nor a transform). */
function hasPage(kind: ReceiptKind): boolean {
  return kind !== 'office' && kind !== 'merge' && kind !== 'transform';
}

/** Stage durations from the trace's marks (render-trace.ts STAGES); a stage the render never reached is null. */
function timings(trace: RenderTrace, totalMs: number): Record<string, number | null> {
  const reached = new Map(trace.stages().map((stage) => [stage.name, round(stage.end - stage.start)]));
  return { ...Object.fromEntries(STAGES.map(([name]) => [name, reached.get(name) ?? null])), total: round(totalMs) };
}

function requestWarnings(trace: RenderTrace): string[] {
  const warnings: string[] = [];
  const printed = trace.marks.printed ?? trace.marks.waited;
  const failed = trace.requests.filter((request) => !request.blocked && ((request.status ?? 0) >= 400 || request.failure));
  if (failed.length > 0) warnings.push(`${counted(failed.length, 'request')} failed: an HTTP error or a load error, see Requests`);
  const blocked = trace.requests.filter((request) => request.blocked).length;
  if (blocked > 0) warnings.push(`${counted(blocked, 'request was', 'requests were')} refused by the network guard, see Blocked`);
  if (printed !== undefined) {
    // The page itself (the first document) was loaded by then, whatever its events said.
    const page = trace.requests.find((request) => request.resourceType === 'Document');
    const unfinished = trace.requests.filter((request) => request !== page && (request.endMs === undefined || request.endMs > printed)).length;
    if (unfinished > 0) warnings.push(`${counted(unfinished, 'request was', 'requests were')} still in flight when the page was printed`);
  }
  if (trace.droppedRequests > 0)
    warnings.push(`${counted(trace.droppedRequests, 'request')} beyond the first 500 ${trace.droppedRequests === 1 ? 'is' : 'are'} counted but not listed`);
  return warnings;
}

/** "1 request", "2 requests"; `many` for an irregular plural ("1 request was", "2 requests were"). */
function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * A URL as the caller knows it: Quire's own render site (a fresh r<hex>.render.invalid origin per
 * render, docs/architecture.md) is "the document", or the asset's name; any other URL masked.
 */
export function shownUrl(url: string): string {
  if (!isRenderSiteUrl(url)) return maskUrl(url);
  const { pathname, search } = new URL(url);
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice(1));
  } catch {
    name = pathname.slice(1);
  }
  return name === '' ? 'the document' : `${name}${search}`;
}

const RENDER_SITE_URL = new RegExp(`https?://[a-z0-9-]+\\.${RENDER_SITE.replace('.', '\\.')}/[^\\s)'":]*`, 'g');

/** A console line with the render site's URLs (a stack trace's) said as shownUrl says them. */
function shownText(text: string): string {
  return text.replace(RENDER_SITE_URL, (url) => shownUrl(url));
}

const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'emoji',
  'math',
]);

/**
 * A font in the PDF that no style names drew glyphs the named fonts lack (a fallback), or came
 * from a generic family such as sans-serif: said only when the page names a font of its own, so
 * a page on generic families alone gets no such warning.
 */
function fontWarnings(trace: RenderTrace, pdf: PdfFacts | undefined): string[] {
  if (!pdf || !trace.fontFamilies.some((family) => !GENERIC_FAMILIES.has(family))) return [];
  const warnings = pdf.fonts
    .filter((font) => font.name !== null && !isNamedByPage(font.name, trace.fontFamilies))
    .map((font) => `${font.name} is in the PDF but no style names it: a fallback for characters the named fonts lack, or a generic family`);
  // Chromium embeds colour and bitmap fonts (emoji, some CJK fonts) as unnamed Type 3 fonts.
  if (pdf.fonts.some((font) => font.name === null))
    warnings.push('some text was drawn with an unnamed Type 3 font (a colour or bitmap font, such as emoji): a fallback for characters the named fonts lack');
  return warnings;
}

/**
 * Families the system's font configuration answers with a metric twin (fonts-liberation): a page
 * asking for Arial (or getting Chromium's default, Times New Roman) is served Liberation Sans
 * (Serif), which is no fallback.
 */
const METRIC_TWINS: Record<string, string[]> = {
  liberationsans: ['arial', 'helvetica'],
  liberationserif: ['timesnewroman', 'times'],
  liberationmono: ['couriernew', 'courier'],
};

/** Whether a PDF font name ("LiberationSerif-Bold") belongs to a family the page names ("Liberation Serif", or its twin "Times New Roman"). */
function isNamedByPage(fontName: string, families: string[]): boolean {
  const squashed = squash(fontName.split('-')[0]!);
  const names = [squashed, ...(METRIC_TWINS[squashed] ?? [])];
  return families.some((family) => {
    const named = squash(family);
    return named.length > 0 && names.some((name) => name === named || (name === squashed && name.startsWith(named)));
  });
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Query parameters whose values are treated as secrets (docs/api.md#render-receipts). */
const SECRET_PARAM = /token|key|secret|pass|pwd|auth|sig|session|credential|code|ticket|jwt/i;
const MASK = '***';

/** The URL with user info and secret-looking query values masked; data: URLs shortened to their type. */
export function maskUrl(url: string): string {
  if (url.startsWith('data:')) return `${url.slice(0, Math.min(url.indexOf(',') + 1 || 40, 60))}…(${url.length} characters)`;
  const parsed = URL.parse(url);
  if (!parsed) return url.slice(0, 2000);
  if (parsed.username) parsed.username = MASK;
  if (parsed.password) parsed.password = MASK;
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, MASK);
  }
  return parsed.href.slice(0, 2000);
}

/** Options as in force, with every credential masked and long values cut. */
function maskOptions(options: Record<string, unknown>): Record<string, unknown> {
  const masked: Record<string, unknown> = { ...options };
  if (options.http_headers) masked.http_headers = Object.fromEntries(Object.keys(options.http_headers as object).map((name) => [name, MASK]));
  if (Array.isArray(options.cookies)) masked.cookies = (options.cookies as { name: string }[]).map((cookie) => ({ ...cookie, value: MASK }));
  if (options.password) masked.password = MASK;
  if (options.basic_auth) masked.basic_auth = { ...(options.basic_auth as object), password: MASK };
  if (options.encrypt) {
    const { owner_password, user_password, ...rest } = options.encrypt as Record<string, unknown>;
    masked.encrypt = {
      ...rest,
      owner_password: owner_password === undefined ? undefined : MASK,
      user_password: user_password === undefined ? undefined : MASK,
    };
  }
  const watermark = options.watermark as { image?: string } | undefined;
  if (watermark?.image) masked.watermark = { ...watermark, image: maskUrl(watermark.image) };
  return masked;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
