// The public playground (docs/api.md#playground): one real render of html, markdown or a url with no key,
// limited per client address and never counted against any account. Source checks (the network
// guard included) are RenderService's; this module owns only the playground's own limits.

import { ApiError } from '../../errors.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../render/pdf-options.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { Tenant } from '../../render/render-slots.ts';
import type { Resolver } from '../../guard/dns-resolver.ts';
import type { RateLimitStore, RateRule } from '../../stores/rate-limits.ts';
import { withReceipt, type RenderService } from './render.ts';
import { sourceSummary, type ReceiptsService } from '../accounts/receipts.ts';
import type { FinalOutput, OutputSteps, StepContext } from '../output/steps.ts';

/** docs/api.md#limits: playground html is capped at 512 KB (the keyed API allows 5 MB). */
export const PLAYGROUND_MAX_HTML_BYTES = 512 * 1024;

const WINDOW_MS = 60_000;

/** The render-slot tenant of every playground call (key ids start with key_, so it cannot clash). */
export const PLAYGROUND_TENANT = 'playground';

export interface PlaygroundInput {
  html?: string;
  url?: string;
  markdown?: string;
  options?: PdfOptions;
  /** Values for the placeholders of options.header / options.footer. */
  data?: Record<string, unknown>;
  filename?: string;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted render leaves the window. */
  resetSeconds: number;
}

export interface PlaygroundDeps {
  renderer: Renderer;
  /** Sources as keyed renders resolve them, and the final steps (PDF/A) every output takes. */
  sources: Pick<RenderService, 'resolveSource' | 'finishUncharged'>;
  /** Where the per-address counts live: this process's memory, or PostgreSQL shared by every instance. */
  rates: RateLimitStore;
  /** Renders allowed per client address per minute (PLAYGROUND_RATE_LIMIT). */
  ratePerMinute: number;
  /** Render slots the playground may hold at once, all callers together (PLAYGROUND_CONCURRENCY). */
  concurrency: number;
  /** The server's render slots (RENDER_CONCURRENCY): the playground never gets all of them when there are two or more. */
  renderSlots: number;
  /** Longest playground render (PLAYGROUND_MAX_TIMEOUT_MS): a larger options.timeout_ms is lowered to it. */
  maxTimeoutMs: number;
  /** The activity feed, and a receipt when options.receipt asks (readable with its id alone). */
  receipts: ReceiptsService;
  /** The final steps (attachments, e-invoice, PDF/A) as every keyed render takes them (services/output/steps.ts). */
  outputSteps?: OutputSteps;
  now?: () => number;
}

/** The playground's share of the render slots: as configured, but always leaving one for keyed renders. */
export function playgroundShare(concurrency: number, renderSlots: number): number {
  return renderSlots >= 2 ? Math.max(1, Math.min(concurrency, renderSlots - 1)) : 1;
}

export class PlaygroundService {
  private readonly rule: RateRule;
  private readonly now: () => number;
  private readonly tenant: Tenant;

  /** The longest render the playground allows (PLAYGROUND_MAX_TIMEOUT_MS), for the document its page reads. */
  get maxTimeoutMs(): number {
    return this.deps.maxTimeoutMs;
  }

  constructor(private readonly deps: PlaygroundDeps) {
    this.rule = { limit: deps.ratePerMinute, windowMs: WINDOW_MS };
    this.now = deps.now ?? Date.now;
    // Every anonymous caller shares one tenant: however many call, they hold at most this share.
    this.tenant = { id: PLAYGROUND_TENANT, concurrency: playgroundShare(deps.concurrency, deps.renderSlots) };
  }

  /**
   * Renders html or a url for an anonymous caller. Throws 413 over 512 KB of html, 429
   * rate_limited (with Retry-After) past the per-address allowance, and whatever the source check
   * and the renderer throw. The rate state is returned for the RateLimit-* headers.
   */
  async render(
    input: PlaygroundInput,
    clientAddress: string,
    requestId?: string,
  ): Promise<{ pdf: Uint8Array; filename?: string; rate: RateLimitState; receiptId?: string; headers: Record<string, string> }> {
    for (const field of ['html', 'markdown'] as const) {
      const text = input[field];
      if (text !== undefined && Buffer.byteLength(text, 'utf8') > PLAYGROUND_MAX_HTML_BYTES)
        throw new ApiError(
          'payload_too_large',
          `${field} is larger than the playground limit of 512 KB; use POST /v1/pdf with an API key for larger documents.`,
        );
    }
    const fields = { html: input.html, url: input.url, markdown: input.markdown, options: input.options };
    // Refusals that need no lookup (fields, schemes, address literals) are not counted: a mistake
    // costs the caller nothing. Anything that needs DNS or a render is counted first (issue 11).
    await this.deps.sources.resolveSource(fields, PLAYGROUND_ACCOUNT, WITHOUT_DNS);
    // The final steps' refusals (a bad invoice, too many files) cost the caller nothing either.
    await this.deps.outputSteps?.check(input.options, this.stepContext());
    const rate = await this.take(clientGroup(clientAddress));
    if (!rate.allowed) {
      throw new ApiError(
        'rate_limited',
        `The playground allows ${rate.limit} renders a minute from one address; try again in ${rate.resetSeconds} s, or use POST /v1/pdf with an API key.`,
        {
          'Retry-After': String(rate.resetSeconds),
          ...rateLimitHeaders(rate),
        },
      );
    }
    const given = input.options ?? DEFAULT_PDF_OPTIONS;
    const options = { ...given, timeout_ms: Math.min(given.timeout_ms, this.deps.maxTimeoutMs) };
    const { receipts } = this.deps;
    const trace = receipts.traceFor({ asked: options.receipt, mode: null, storing: false });
    const report = { trace, requestId, keyId: null, kind: 'playground' as const, source: sourceSummary(input), options, startedAt: performance.now() };
    let final: FinalOutput;
    try {
      const source = await this.deps.sources.resolveSource(fields, PLAYGROUND_ACCOUNT);
      const make = () => this.deps.renderer.render({ source, options, tenant: this.tenant, data: input.data, trace });
      final = await this.deps.sources.finishUncharged(input.options, make, { account: PLAYGROUND_ACCOUNT });
    } catch (error) {
      throw withReceipt(error, await receipts.finish({ ...report, error }));
    }
    const { pdf, headers, steps } = final;
    // The final steps (PDF/A with its report, attachments, the e-invoice) are recorded as a keyed render's are (issue 39, item 11).
    const receiptId = await receipts.finish({ ...report, bytes: pdf, steps });
    return { pdf, filename: input.filename, rate, receiptId, headers };
  }

  private stepContext(): StepContext {
    // No key, so no stored document can be attached (a document_id is not found); no template, so no from_data.
    return { account: PLAYGROUND_ACCOUNT, field: 'options' };
  }

  private async take(client: string): Promise<RateLimitState & { allowed: boolean }> {
    const now = this.now();
    const taken = await this.deps.rates.take(client, this.rule, now);
    return {
      allowed: taken.allowed,
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - taken.count),
      resetSeconds: Math.max(1, Math.ceil((taken.oldestAt + this.rule.windowMs - now) / 1000)),
    };
  }
}

/** The draft IETF RateLimit header fields, so a client can show how many renders are left. */
export function rateLimitHeaders(rate: RateLimitState): Record<string, string> {
  return { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining), 'RateLimit-Reset': String(rate.resetSeconds) };
}

/** A resolver that never looks anything up: names are left for the counted, real check. */
const WITHOUT_DNS: Resolver = async () => {
  throw new Error('not resolved in the first pass');
};

// resolveSource only reads the account for template_id, which the playground refuses beforehand.
const PLAYGROUND_ACCOUNT = Object.freeze({ keyId: 'playground', name: 'playground', autoStore: false }) as Parameters<RenderService['resolveSource']>[1];

/** One IPv6 client usually holds a whole /64, so it counts as one address; IPv4 (and v4-mapped) as itself. */
export function clientGroup(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::', 2);
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...headParts, ...Array(Math.max(0, 8 - headParts.length - tailParts.length)).fill('0'), ...tailParts] : headParts;
  return `${groups
    .slice(0, 4)
    .map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
