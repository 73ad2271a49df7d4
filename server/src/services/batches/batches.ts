// Batches (docs/api.md#batches): the checks of services/batches/admission.ts, creating the durable
// record, then rendering the items in the call (up to 10, not async) or handing them to the
// background worker; reading batches for their key or the admin; and, at start-up and on every
// lease tick, taking up what a stop, crash or dead instance left. Each item's own story is
// services/batches/items.ts; the worker (queue/batch-worker.ts) and the webhook deliverer
// (queue/webhook-delivery.ts) are built by the composition root and handed in.

import { ApiError } from '../../errors.ts';
import type { UsageSnapshot } from '../../accounts/usage.ts';
import type { BatchRecord, BatchStore } from '../../stores/batch-store.ts';
import type { BatchItemRequest } from '../render/request.ts';
import { checkBatchPlan, checkWebhookUrl, newBatchRecord, type BatchInput, type BatchItemInput, type WebhookUrlCheck } from './admission.ts';
import type { BatchWorker } from '../../queue/batch-worker.ts';
import type { WebhookDeliverer } from '../../queue/webhook-delivery.ts';
import { BatchItems, type BatchItemsDeps, type ItemOutcome } from './items.ts';
import { reserveTurns } from '../render/reserve-turns.ts';
import { batchEventData } from '../../wire/batch-json.ts';
import { backlogFullAnswer } from './backlog.ts';
import { BacklogFullError, type BacklogLimits } from '../../stores/batch-backlog.ts';
import type { Account } from '../accounts/keys.ts';
import { pageOrBadCursor, type Page } from '../accounts/paging.ts';
import type { Owner } from '../accounts/owner.ts';
import { checkSourceFields } from '../render/source-rules.ts';

/** docs/api.md#batches: at most this many items, and async not true, are answered in the call. */
export const IN_CALL_MAX_ITEMS = 10;

export interface CreatedBatch {
  batch: BatchRecord;
  /** Rendered in the call (200) rather than accepted for the background (202). */
  inCall: boolean;
  /** The key's usage after the items charged so far. */
  usage: UsageSnapshot;
  /** Call once the response is sent: an in-call batch's webhook goes out after it. */
  afterResponse(): void;
}

/** What each item needs (services/batches/items.ts: the store, rendering and transforms, accounts, documents, events), the webhook_url check, and the batch-level parts. */
export interface BatchesOptions extends Omit<BatchItemsDeps, 'onCompleted'>, WebhookUrlCheck {
  /** Renders at once (RENDER_CONCURRENCY): an in-call batch renders this many items at a time. */
  renderConcurrency: number;
  /** Caps of the background backlog (BATCH_QUEUE_*), per key and in total. */
  backlog: BacklogLimits;
  /** Hands background items out fairly; this service runs them. */
  worker: BatchWorker;
  /** Sends completed batches' webhooks. */
  deliverer: WebhookDeliverer;
  /** How often leases are renewed and batches of dead instances adopted (default 5 s; PostgreSQL only does anything). */
  leaseTickMs?: number;
}

/** Settles what a crash interrupted, and starts the worker, the webhook deliveries and the lease tick. */
export async function openBatchesService(options: BatchesOptions): Promise<BatchesService> {
  const service = new BatchesService(options.store, options);
  await service.resume();
  return service;
}

export class BatchesService {
  private readonly items: BatchItems;
  private readonly worker: BatchWorker;
  private readonly deliverer: WebhookDeliverer;
  /** Requests of batches not yet completed, by batch id. */
  private readonly requests = new Map<string, BatchItemRequest[]>();
  /** Batches rendering in their call: their webhook waits for the response. */
  private readonly inCall = new Set<string>();
  private readonly now: () => Date;
  private readonly leaseTimer: NodeJS.Timeout;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly store: BatchStore,
    private readonly options: BatchesOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.deliverer = options.deliverer;
    this.items = new BatchItems({
      ...options,
      onCompleted: (batch) => {
        this.requests.delete(batch.id);
        if (!batch.webhook) void this.release(batch.id);
        else if (!this.inCall.has(batch.id)) this.deliverer.schedule(batch);
      },
    });
    this.worker = options.worker;
    this.worker.serve({
      runItem: (batchId, index) => this.runQueued(batchId, index),
      onGiveUp: async (batchId, index, error) => {
        const batch = this.store.held(batchId);
        if (batch) await this.items.giveUp(batch, index, error);
      },
    });
    // Leases: renewed while this instance lives; batches of an instance presumed dead are adopted.
    this.leaseTimer = setInterval(() => {
      this.ticking ??= this.tick()
        .catch((error: unknown) => options.log.error({ err: error }, 'batch lease tick failed'))
        .finally(() => (this.ticking = undefined));
    }, options.leaseTickMs ?? 5000);
    this.leaseTimer.unref();
  }

  /**
   * Checks the plan's rules and the webhook target, records the batch durably, then renders it in
   * the call or queues it. Throws plan_required, batch_too_large, storage_unavailable,
   * conflicting_source, invalid_request, url_blocked.
   */
  async create(input: BatchInput, account: Account): Promise<CreatedBatch> {
    const { plan } = account;
    checkBatchPlan(plan, input.requests.length, () => this.options.keys.plans());
    for (const [index, request] of input.requests.entries()) if (!request.transform) checkSourceFields(request, `requests[${index}]`);
    const requests = await this.withSteps(input.requests, account);
    if (input.webhook_url !== undefined) await checkWebhookUrl(input.webhook_url, this.options);
    const inCall = requests.length <= IN_CALL_MAX_ITEMS && input.async !== true;
    const batch = newBatchRecord(input, account, inCall, this.now());
    // A background batch is admitted by the store against the backlog caps, shared by every instance.
    await this.store.create(batch, requests, inCall ? undefined : this.options.backlog).catch((error: unknown) => {
      throw error instanceof BacklogFullError ? backlogFullAnswer(error, this.options.renderConcurrency) : error;
    });
    this.options.events.publish('batch.created', batchEventData(batch));
    if (!inCall) {
      const usage = await this.options.meter.usage(account.keyId, plan);
      // The answer shows the batch as accepted (all queued), whatever the worker does meanwhile.
      const accepted = structuredClone(batch);
      this.requests.set(batch.id, requests);
      this.worker.enqueue(
        batch.keyId,
        batch.id,
        batch.items.map((item) => item.index),
      );
      return { batch: accepted, inCall, usage, afterResponse: () => undefined };
    }
    this.inCall.add(batch.id);
    try {
      await this.renderInCall(batch, requests);
    } finally {
      this.inCall.delete(batch.id);
    }
    return { batch, inCall, usage: await this.options.meter.usage(account.keyId, plan), afterResponse: () => this.deliverer.schedule(batch) };
  }

  /**
   * Transform items with their steps: a preset's read now (404 preset_not_found refuses the whole
   * batch before anything is kept), so later edits of the preset do not change a queued item.
   */
  private async withSteps(items: BatchItemInput[], account: Account): Promise<BatchItemRequest[]> {
    const requests: BatchItemRequest[] = [];
    for (const [index, item] of items.entries()) {
      const { transform } = item;
      const steps = transform && (await this.options.transform.oneSteps(transform, account, `requests[${index}].transform`));
      requests.push(transform ? { ...item, transform: { ...transform, steps: steps! } } : (item as BatchItemRequest));
    }
    return requests;
  }

  /** A batch of the owner (undefined: the admin, any key's); 404 batch_not_found otherwise. */
  async get(owner: Owner, id: string): Promise<BatchRecord> {
    const batch = await this.store.get(id);
    if (!batch || (owner !== undefined && batch.keyId !== owner)) throw new ApiError('batch_not_found', `Batch ${id} was not found.`);
    return batch;
  }

  /** A page of batches, newest first: one key's, or every key's. */
  list(owner: Owner, limit: number, cursor: string | undefined): Promise<Page<BatchRecord>> {
    return pageOrBadCursor(() => this.store.page(owner, limit, cursor));
  }

  /** Start-up: adopts the batches with work left (files: all; PostgreSQL: those no live instance holds). */
  async resume(): Promise<void> {
    for (const batch of await this.store.adopt()) await this.take(batch);
  }

  /** Deletes completed batch records past their expiry (their documents keep their own retention); the retention sweeper calls it. */
  async prune(): Promise<number> {
    return this.store.prune(this.now().getTime());
  }

  /** Renews this instance's leases, then adopts what instances presumed dead left (PostgreSQL). */
  private async tick(): Promise<void> {
    await this.store.heartbeat();
    for (const batch of await this.store.adopt()) {
      this.options.log.info({ batch_id: batch.id, status: batch.status }, 'adopted a batch whose instance was presumed dead (its lease ran out)');
      await this.take(batch);
    }
  }

  /**
   * Works on an adopted batch: settles the items a stop, crash or dead instance left rendering
   * (services/batches/items.ts), queues what is left, or schedules its pending webhook.
   */
  private async take(batch: BatchRecord): Promise<void> {
    if (batch.status === 'completed') {
      if (batch.webhook?.status === 'pending') this.deliverer.schedule(batch);
      else await this.release(batch.id);
      return;
    }
    let requests: BatchItemRequest[];
    try {
      // The store keeps what create() was given, as JSON it never reads: these are our BatchItemRequests.
      requests = (await this.store.requests(batch.id)) as BatchItemRequest[];
    } catch (error) {
      // Not written by us if missing (requests are dropped only after completion): end the batch rather than loop.
      this.options.log.error({ err: error, batch_id: batch.id }, 'the requests of an unfinished batch cannot be read; its remaining items fail');
      for (const item of batch.items) {
        if (item.status === 'queued' || item.status === 'rendering') {
          Object.assign(item, {
            status: 'failed',
            error: { code: 'internal_error', detail: 'This item could not be rendered: its request was lost.' },
            finishedAt: this.now().toISOString(),
          });
        }
      }
      await this.items.completeIfDone(batch);
      return;
    }
    this.requests.set(batch.id, requests);
    const queued = await this.items.recover(batch);
    if ((batch.status as BatchRecord['status']) !== 'completed') this.worker.enqueue(batch.keyId, batch.id, queued);
  }

  private async release(batchId: string): Promise<void> {
    await this.store
      .release(batchId)
      .catch((error: unknown) => this.options.log.warn({ err: error, batch_id: batchId }, 'could not release a batch lease; it expires by itself'));
  }

  /** Shutdown, first step: hand out no more items; items the closing renderer turns away stay for start-up. */
  stopTaking(): void {
    this.items.stop();
    clearInterval(this.leaseTimer);
    void this.worker.stop();
  }

  /** Shutdown, after the renderer closed: waits for items and webhook tries in flight and for the last writes. */
  async close(): Promise<void> {
    this.stopTaking();
    await this.worker.stop();
    await this.deliverer.stop();
    await this.ticking;
    await this.store.flush();
    await this.store.handBack();
  }

  private runQueued(batchId: string, index: number): Promise<ItemOutcome> {
    // A batch whose lease was lost is another instance's now: its items are not run here.
    const batch = this.store.held(batchId);
    const request = this.requests.get(batchId)?.[index];
    if (!batch || !request) return Promise.resolve('ended');
    return this.items.run(batch, request, index, 'background');
  }

  /** Renders an in-call batch's items, RENDER_CONCURRENCY at a time, at interactive priority. */
  private async renderInCall(batch: BatchRecord, requests: readonly BatchItemRequest[]): Promise<void> {
    let next = 0;
    const outcomes: ItemOutcome[] = [];
    // docs/api.md#batches: past the allowance the remaining items fail, so items reserve in order.
    const turns = reserveTurns(requests.length);
    const lanes = Math.min(this.options.renderConcurrency, requests.length);
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < requests.length) {
          const index = next++;
          outcomes.push(await this.items.runInCall(batch, requests[index]!, index, turns[index]));
        }
      }),
    );
    if (outcomes.includes('interrupted')) {
      throw new ApiError('renderer_busy', `The server is shutting down; batch ${batch.id} finishes after it restarts (GET /v1/pdf/batch/${batch.id}).`, {
        'Retry-After': '5',
      });
    }
  }
}
