// Webhook delivery for completed batches (docs/api.md#webhooks, Standard Webhooks): a POST of
// {"type":"batch.completed","timestamp","data"} (data: the batch as GET answers it, wire/batch-json.ts) signed with the batch's secret, tried until a 2xx
// answer or WEBHOOK_ATTEMPTS tries, each WEBHOOK_RETRY_BASE_MS x 4^n after the last. Every try is
// a stored record on the batch (stores/batch-store.ts), so the admin sees it and a restart resumes the
// schedule. The network guard (guard/webhook-target.ts) checks the target again at every try,
// connects to the checked address, never follows a redirect, and cuts a try at WEBHOOK_TIMEOUT_MS.
// Tries run apart from the render slots: a slow receiver never holds up a render.

import { Webhook } from 'standardwebhooks';
import type { AddressPolicy } from '../guard/address-policy.ts';
import { BlockedUrlError } from '../guard/url-check.ts';
import type { Resolver } from '../guard/dns-resolver.ts';
import { deliverWebhook, WebhookTimeoutError } from '../guard/webhook-target.ts';
import type { EventBus } from '../events.ts';
import type { Logger } from '../logger.ts';
import type { BatchRecord, BatchStore, ErrorRecord, WebhookAttemptRecord } from '../stores/batch-store.ts';
import { batchJson } from '../wire/batch-json.ts';
import { annotate, continueTrace, inSpan, traceHeaders } from '../telemetry/spans.ts';

/** Each retry waits this many times longer than the one before. */
export const WEBHOOK_BACKOFF_FACTOR = 4;

export interface WebhookDelivererOptions {
  store: BatchStore;
  /** Where a webhook may go (NETWORK_GUARD off: anywhere). */
  policy: AddressPolicy;
  resolve?: Resolver;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  events: EventBus;
  log: Logger;
  /** Tries running at once; more wait their turn. */
  concurrency?: number;
  now?: () => Date;
}

export class WebhookDeliverer {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly waiting: string[] = [];
  private readonly now: () => Date;
  private stopped = false;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Schedules the batch's next try at its nextAttemptAt (at once when that has passed). */
  schedule(batch: BatchRecord): void {
    const webhook = batch.webhook;
    if (this.stopped || !webhook || webhook.status !== 'pending' || this.timers.has(batch.id) || this.running.has(batch.id)) return;
    const delay = Math.max(0, Date.parse(webhook.nextAttemptAt ?? '') - this.now().getTime() || 0);
    const timer = setTimeout(() => {
      this.timers.delete(batch.id);
      this.due(batch.id);
    }, delay);
    this.timers.set(batch.id, timer);
  }

  /** Stops scheduling and waits for the tries in flight (each ends within WEBHOOK_TIMEOUT_MS). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waiting.length = 0;
    await Promise.allSettled([...this.running.values()]);
  }

  private due(batchId: string): void {
    if (this.stopped) return;
    if (this.running.size >= (this.options.concurrency ?? 8)) {
      if (!this.waiting.includes(batchId)) this.waiting.push(batchId);
      return;
    }
    const run = this.attempt(batchId)
      .catch((error: unknown) => this.options.log.error({ err: error, batch_id: batchId }, 'webhook delivery could not be recorded'))
      .finally(() => {
        this.running.delete(batchId);
        const next = this.waiting.shift();
        if (next) this.due(next);
        const batch = this.options.store.held(batchId);
        if (batch) this.schedule(batch);
      });
    this.running.set(batchId, run);
  }

  private async attempt(batchId: string): Promise<void> {
    const batch = this.options.store.held(batchId);
    const webhook = batch?.webhook;
    if (!batch || !webhook || webhook.status !== 'pending') return;
    const { attempts, retryBaseMs, timeoutMs } = this.options;
    const started = this.now();
    const body = JSON.stringify({ type: 'batch.completed', timestamp: batch.completedAt, data: batchJson(batch) });
    const headers: Record<string, string> = {
      'user-agent': 'Quire-Webhooks/1',
      'webhook-id': webhook.messageId,
      'webhook-timestamp': String(Math.floor(started.getTime() / 1000)),
    };
    if (webhook.secret) headers['webhook-signature'] = signerFor(webhook.secret).sign(webhook.messageId, started, body);
    let statusCode: number | null = null;
    let error: ErrorRecord | null = null;
    try {
      // A span in the trace of the request that created the batch; its traceparent goes to the receiver.
      const answer = await continueTrace(batch.traceparent, () =>
        inSpan('webhook.deliver', { 'quire.batch_id': batch.id, 'quire.webhook.attempt': webhook.attempts.length + 1 }, async () => {
          const sent = await deliverWebhook(
            webhook.url,
            { body, headers: { ...headers, ...traceHeaders() }, timeoutMs },
            this.options.policy,
            this.options.resolve,
          );
          annotate({ 'http.response.status_code': sent.status });
          return sent;
        }),
      );
      statusCode = answer.status;
      if (statusCode >= 300 && statusCode < 400) {
        error = { code: 'redirect_not_followed', detail: `answered HTTP ${statusCode}; redirects are not followed` };
      }
    } catch (thrown) {
      error = attemptError(thrown);
      if (thrown instanceof BlockedUrlError) this.options.log.warn({ batch_id: batchId, reason: thrown.reason }, 'webhook_url blocked at delivery');
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const attempt = webhook.attempts.length + 1;
    const finished = this.now();
    const nextAttemptAt = ok || attempt >= attempts ? null : new Date(finished.getTime() + retryBaseMs * WEBHOOK_BACKOFF_FACTOR ** (attempt - 1)).toISOString();
    const record: WebhookAttemptRecord = {
      attempt,
      at: started.toISOString(),
      statusCode,
      ok,
      error,
      durationMs: finished.getTime() - started.getTime(),
      nextAttemptAt,
    };
    webhook.attempts.push(record);
    webhook.status = ok ? 'delivered' : nextAttemptAt ? 'pending' : 'failed';
    webhook.nextAttemptAt = nextAttemptAt;
    await this.options.store.save(batch);
    // Delivered or given up: nothing is left to do for this batch (PostgreSQL: its lease ends).
    if (webhook.status !== 'pending') await this.options.store.release(batch.id);
    this.options.events.publish('batch.webhook', {
      batch_id: batch.id,
      key_id: batch.keyId,
      attempt,
      ok,
      status_code: statusCode,
      webhook_status: webhook.status,
    });
    if (!ok)
      this.options.log.info({ batch_id: batch.id, attempt, status: statusCode, error: error?.code, next_attempt_at: nextAttemptAt }, 'webhook delivery failed');
  }
}

/**
 * docs/api.md#webhooks: a `whsec_<base64>` secret signs with its decoded bytes (the library's own form); any
 * other secret with its UTF-8 bytes, which the library takes base64-encoded.
 */
export function signerFor(secret: string): Webhook {
  if (secret.startsWith('whsec_')) return new Webhook(secret);
  return new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
}

/** Whether a whsec_ secret carries base64 the library can decode into a key. */
export function isUsableSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return true;
  const encoded = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}

function attemptError(error: unknown): ErrorRecord {
  // Only the admin sees attempts, so the guard's exact reason is shown.
  if (error instanceof BlockedUrlError) return { code: 'url_blocked', detail: `webhook_url is not allowed: ${error.reason}` };
  if (error instanceof WebhookTimeoutError) return { code: 'timeout', detail: error.message };
  return { code: 'network_error', detail: String((error as Error)?.message ?? error).slice(0, 300) };
}
