// The story of one batch item, shared by in-call batches and the background worker: mark it
// rendering on disk, render it through RenderService (reserve, render, store, charge), record how
// it ended; and, at start-up, settle items that a crash caught in the middle.
//
// Batches are durable (docs/decisions.md#batch-items-settled-from-what-is-on-disk). The order of
// writes for one item, and why a crash anywhere is safe:
//   1. state.json: item "rendering" (+ startedAt), awaited before any work starts.
//   2. the PDF, then its sidecar, under the item's document id (fixed at creation): the sidecar
//      is the document's commit point (stores/documents.ts).
//   3. the usage file: count + 1 together with the charge tag "<batch id>:<index>", one atomic
//      write (accounts/usage.ts). The reservation before it lived only in memory.
//   4. state.json: item "succeeded" (or "failed" with its error; failures store and charge nothing).
//   5. the tag is dropped from memory; it leaves the usage file with that file's next write.
// At start-up an item still "rendering" is settled from what is on disk:
//   - no document under its id: the crash came before 2 completed, so nothing was charged (3
//     comes after 2): it is queued again and renders under the same id.
//   - a document and its tag on file: 2 and 3 happened: marked succeeded, not charged again.
//   - a document and no tag: the crash fell between 2 and 3: charged now (with the tag) and
//     marked succeeded; if the allowance has no room any more, the document is taken back and the
//     item fails with quota_exceeded. Either way there is one document and one charge.
// An item never runs twice at once (the worker hands each out once), and a finished item is never
// looked at again, so no second document or charge can come from a retry.

import { continueTrace } from '../../telemetry/spans.ts';
import { QuotaExceededError, monthOf, type UsageLedger } from '../../accounts/usage.ts';
import { RendererClosedError, RendererCrashedError } from '../../render/errors.ts';
import type { RenderPriority } from '../../render/render-slots.ts';
import type { EventBus } from '../../events.ts';
import { batchEventData } from '../../wire/batch-json.ts';
import { describeError } from '../../wire/error-mapping.ts';
import type { Logger } from '../../logger.ts';
import type { BatchItemRequest } from '../render/request.ts';
import { LeaseLostError, type BatchItemRecord, type BatchRecord, type BatchStore, type ErrorRecord } from '../../stores/batch-store.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import { UnknownPlanError, type Account, type KeysService } from '../accounts/keys.ts';
import { receiptOfError, type RenderService } from '../render/render.ts';
import type { ReserveTurn } from '../render/reserve-turns.ts';
import type { TransformInput, TransformService } from '../pdf-tools/transform.ts';

export type ItemOutcome = 'ended' | 'retry' | 'interrupted';

/** Background items that meet a browser crash are tried this many times in all. */
const TRANSIENT_TRIES = 3;

export interface BatchItemsDeps {
  store: BatchStore;
  render: RenderService;
  /** Runs transform items (a PDF the key holds, with steps) and reads presets when a batch is made. */
  transform: Pick<TransformService, 'one' | 'oneSteps'>;
  keys: KeysService;
  meter: UsageLedger;
  documents: DocumentsService;
  events: EventBus;
  /** Told when a batch has just completed (its webhook is due). */
  onCompleted: (batch: BatchRecord) => void;
  log: Logger;
  now?: () => Date;
}

export class BatchItems {
  private readonly now: () => Date;
  private readonly tries = new Map<string, number>();
  private stopping = false;

  constructor(private readonly deps: BatchItemsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Shutdown: items that the closing renderer turns away stay "rendering" for start-up to settle. */
  stop(): void {
    this.stopping = true;
  }

  /**
   * Runs one item to its end (or hands it back for a retry); never throws for a render failure.
   * With a turn, the item takes the allowance after the items before it; its turn ends however it ends.
   */
  async run(batch: BatchRecord, request: BatchItemRequest, index: number, priority: RenderPriority, turn?: ReserveTurn): Promise<ItemOutcome> {
    try {
      return await this.runItem(batch, request, index, priority, turn);
    } finally {
      turn?.done();
    }
  }

  private async runItem(batch: BatchRecord, request: BatchItemRequest, index: number, priority: RenderPriority, turn?: ReserveTurn): Promise<ItemOutcome> {
    const item = batch.items[index]!;
    if (isFinal(item)) return 'ended';
    const account = await this.accountOf(batch.keyId);
    if (!account) {
      await this.fail(batch, item, {
        code: 'forbidden',
        detail: 'The API key that sent this batch was revoked, or its plan is no longer offered, before this item rendered.',
      });
      return 'ended';
    }
    item.status = 'rendering';
    item.startedAt = this.now().toISOString();
    item.error = null;
    if (batch.status === 'queued') batch.status = 'processing';
    await this.deps.store.save(batch);
    const tag = chargeTag(batch.id, index);
    try {
      const batchItem = { batchId: batch.id, index, documentId: item.documentId, chargeTag: tag };
      // A background item renders in the trace of the request that queued it.
      const rendered = await continueTrace(batch.traceparent, () =>
        request.transform
          ? this.deps.transform.one(transformInput(request), account, { batchItem, reserveTurn: turn })
          : this.deps.render.render(request, account, { priority, batchItem, reserveTurn: turn }),
      );
      item.receiptId = rendered.receiptIds?.[0] ?? null;
    } catch (error) {
      item.receiptId = receiptOfError(error) ?? null;
      if (this.stopping && (error instanceof RendererClosedError || error instanceof RendererCrashedError)) return 'interrupted';
      // Another instance adopted the batch (this one was presumed dead): it is that one's now, and nothing of this render was kept.
      if (error instanceof LeaseLostError) {
        // Said out loud: a lease lost while alive means heartbeats came late (an overloaded instance).
        this.deps.log.warn({ batch_id: batch.id, index }, 'another instance adopted this batch while an item rendered here: this render is dropped');
        return 'ended';
      }
      const tries = (this.tries.get(tag) ?? 0) + 1;
      if (priority === 'background' && error instanceof RendererCrashedError && tries < TRANSIENT_TRIES) {
        this.tries.set(tag, tries);
        item.status = 'queued';
        await this.deps.store.save(batch);
        return 'retry';
      }
      this.tries.delete(tag);
      await this.fail(batch, item, this.describe(error, batch.id, index));
      return 'ended';
    }
    this.tries.delete(tag);
    await this.succeed(batch, item, [tag]);
    return 'ended';
  }

  /**
   * Ends an item whose run kept throwing (its state could not be written: a full or failing disk)
   * as failed, with the error's code (insufficient_storage for a full disk), and tells the
   * subscribers. Writing that failure is tried once; if it fails too, memory and the event say
   * failed and start-up settles the item from disk. An item that already ended keeps its end.
   */
  async giveUp(batch: BatchRecord, index: number, error: unknown): Promise<void> {
    const item = batch.items[index]!;
    if (!isFinal(item)) markFailed(item, this.describe(error, batch.id, index), this.now());
    this.deps.events.publish('batch.progress', { ...batchEventData(batch), index, item_status: item.status as 'succeeded' | 'failed' });
    await this.deps.store
      .save(batch)
      .catch((failure: unknown) => this.deps.log.error({ err: failure, batch_id: batch.id, index }, 'could not record a given-up batch item'));
    await this.completeIfDone(batch).catch((failure: unknown) => this.deps.log.error({ err: failure, batch_id: batch.id }, 'could not complete a batch'));
  }

  /** An in-call item: like run, but a state write that fails ends the item (the call answers what it has). */
  async runInCall(batch: BatchRecord, request: BatchItemRequest, index: number, turn?: ReserveTurn): Promise<ItemOutcome> {
    try {
      return await this.run(batch, request, index, 'interactive', turn);
    } catch (error) {
      await this.giveUp(batch, index, error);
      return 'ended';
    }
  }

  /**
   * Start-up: settles the items a crash left "rendering" (see the top of this file) and completes
   * the batch if nothing is left to do. Returns the indexes still to render.
   */
  async recover(batch: BatchRecord): Promise<number[]> {
    const settled: string[] = [];
    const seen = { requeued: 0, already_charged: 0, charged_now: 0, taken_back: 0 };
    for (const item of batch.items) {
      if (item.status !== 'rendering') continue;
      if (!(await this.deps.documents.isStored(item.documentId))) {
        item.status = 'queued';
        seen.requeued++;
        continue;
      }
      const tag = chargeTag(batch.id, item.index);
      const since = monthOf(new Date(item.startedAt ?? batch.createdAt));
      if (await this.deps.meter.wasCharged(batch.keyId, tag, since)) {
        markSucceeded(item, this.now());
        settled.push(tag);
        seen.already_charged++;
        continue;
      }
      const error = await this.chargeNow(batch.keyId, tag);
      if (error) {
        await this.deps.documents.discard(item.documentId);
        markFailed(item, error, this.now());
        seen.taken_back++;
      } else {
        markSucceeded(item, this.now());
        settled.push(tag);
        seen.charged_now++;
      }
    }
    if (seen.requeued + seen.already_charged + seen.charged_now + seen.taken_back > 0) {
      this.deps.log.info({ batch_id: batch.id, ...seen }, 'settled batch items that a stop or crash caught rendering');
    }
    await this.deps.store.save(batch);
    await this.deps.meter.settleCharges(batch.keyId, settled);
    await this.completeIfDone(batch);
    return batch.items.filter((item) => item.status === 'queued').map((item) => item.index);
  }

  /** Completes the batch once every item has ended: its webhook becomes due, its requests are deleted. */
  async completeIfDone(batch: BatchRecord): Promise<void> {
    if (batch.status === 'completed' || !batch.items.every(isFinal)) return;
    // Set before the first await: two items ending together complete the batch once.
    batch.status = 'completed';
    batch.completedAt = this.now().toISOString();
    if (batch.webhook) {
      batch.webhook.status = 'pending';
      batch.webhook.nextAttemptAt = batch.completedAt;
    }
    await this.deps.store.save(batch);
    await this.deps.store.dropRequests(batch.id);
    await this.deps.meter.settleCharges(batch.keyId, [], `${batch.id}:`);
    this.deps.events.publish('batch.completed', batchEventData(batch));
    this.deps.onCompleted(batch);
  }

  private async succeed(batch: BatchRecord, item: BatchItemRecord, tags: string[]): Promise<void> {
    markSucceeded(item, this.now());
    await this.deps.store.save(batch);
    await this.deps.meter.settleCharges(batch.keyId, tags);
    this.deps.events.publish('batch.progress', { ...batchEventData(batch), index: item.index, item_status: 'succeeded' });
    await this.completeIfDone(batch);
  }

  private async fail(batch: BatchRecord, item: BatchItemRecord, error: ErrorRecord): Promise<void> {
    markFailed(item, error, this.now());
    await this.deps.store.save(batch);
    this.deps.events.publish('batch.progress', { ...batchEventData(batch), index: item.index, item_status: 'failed' });
    await this.completeIfDone(batch);
  }

  /** Charges a document stored before a crash cut its charge off; the error when it cannot be. */
  private async chargeNow(keyId: string, tag: string): Promise<ErrorRecord | undefined> {
    const account = await this.accountOf(keyId);
    if (!account)
      return { code: 'forbidden', detail: 'The API key that sent this batch was revoked, or its plan is no longer offered, before this item rendered.' };
    try {
      const reservation = await this.deps.meter.reserve(keyId, account.plan);
      const usage = await reservation.commit(tag);
      this.deps.events.publish('usage.changed', { key_id: keyId, month: usage.month, used: usage.used, limit: usage.limit, plan: usage.planId });
      return undefined;
    } catch (error) {
      if (error instanceof QuotaExceededError) return describeError(error);
      throw error;
    }
  }

  /** The item's {code, detail}; an error the contract has no code for is logged whole, since the item only says internal_error. */
  private describe(error: unknown, batchId: string, index: number): ErrorRecord {
    const record = describeError(error);
    if (record.code === 'internal_error') this.deps.log.error({ err: error, batch_id: batchId, index }, 'batch item failed');
    return record;
  }

  private async accountOf(keyId: string): Promise<Account | undefined> {
    try {
      return await this.deps.keys.accountById(keyId);
    } catch (error) {
      if (error instanceof UnknownPlanError) return undefined;
      throw error;
    }
  }
}

/** A transform item as TransformService.one takes it: its PDF decoded from base64 (the items are stored as JSON). */
function transformInput(request: BatchItemRequest): TransformInput {
  const { pdf, options, ...rest } = request.transform!;
  return { ...rest, pdf: pdf === undefined ? undefined : new Uint8Array(Buffer.from(pdf, 'base64')), options, filename: request.filename };
}

/** The tag a batch item's charge carries in the usage file. */
export function chargeTag(batchId: string, index: number): string {
  return `${batchId}:${index}`;
}

export function isFinal(item: BatchItemRecord): boolean {
  return item.status === 'succeeded' || item.status === 'failed';
}

function markSucceeded(item: BatchItemRecord, at: Date): void {
  item.status = 'succeeded';
  item.error = null;
  item.finishedAt = at.toISOString();
}

function markFailed(item: BatchItemRecord, error: ErrorRecord, at: Date): void {
  item.status = 'failed';
  item.error = error;
  item.finishedAt = at.toISOString();
}
