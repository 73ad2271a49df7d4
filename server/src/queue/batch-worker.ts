// The background batch worker: hands out queued items fairly (round-robin across keys, then
// across one key's batches, items in order) and keeps a fixed number in flight. Each item runs
// through services/batch-items.ts at background priority, so renders of the render slots go to
// interactive calls first. What is queued here is only a schedule: the items' states live on disk
// (stores/batches.ts) and start-up rebuilds this from them.

import type { Logger } from '../logger.ts';

export type RunItem = (batchId: string, index: number) => Promise<'ended' | 'retry' | 'interrupted'>;

export interface BatchWorkerOptions {
  /**
   * Items in flight at once. More than the render slots: an item spends part of its time writing
   * its state, document and count, and a slot freed meanwhile should find the next item waiting.
   */
  inFlight: number;
  runItem: RunItem;
  log: Logger;
  /** Wait before an item whose run threw (a failed state write) is tried again. */
  retryDelayMs?: number;
}

export class BatchWorker {
  /** keyId -> batchId -> item indexes still to hand out. Map order is the round-robin order. */
  private readonly queues = new Map<string, Map<string, number[]>>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: BatchWorkerOptions) {}

  /** Queues items of a batch (after those of it already queued) and starts them as room allows. */
  enqueue(keyId: string, batchId: string, indexes: readonly number[]): void {
    if (this.stopped || indexes.length === 0) return;
    let batches = this.queues.get(keyId);
    if (!batches) this.queues.set(keyId, (batches = new Map()));
    batches.set(batchId, [...(batches.get(batchId) ?? []), ...indexes]);
    this.pump();
  }

  /** Items queued and not yet handed out. */
  queuedCount(): number {
    let count = 0;
    for (const batches of this.queues.values()) for (const indexes of batches.values()) count += indexes.length;
    return count;
  }

  inFlightCount(): number {
    return this.running.size;
  }

  /** Hands out nothing more and waits for the items in flight to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.options.inFlight) {
      const next = this.next();
      if (!next) return;
      const run: Promise<void> = this.options
        .runItem(next.batchId, next.index)
        .then(
          (outcome) => {
            if (outcome === 'retry') this.enqueue(next.keyId, next.batchId, [next.index]);
          },
          (error: unknown) => {
            this.options.log.error({ err: error, batch_id: next.batchId, index: next.index }, 'batch item could not be run; trying it again shortly');
            const timer = setTimeout(() => {
              this.timers.delete(timer);
              this.enqueue(next.keyId, next.batchId, [next.index]);
            }, this.options.retryDelayMs ?? 1000);
            this.timers.add(timer);
          },
        )
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }

  /** The next item, round-robin: the key at the front gives one item and goes to the back, and so do its batches. */
  private next(): { keyId: string; batchId: string; index: number } | undefined {
    for (const [keyId, batches] of this.queues) {
      this.queues.delete(keyId);
      for (const [batchId, indexes] of batches) {
        batches.delete(batchId);
        const index = indexes.shift();
        if (indexes.length > 0) batches.set(batchId, indexes);
        if (index === undefined) continue;
        if (batches.size > 0) this.queues.set(keyId, batches);
        return { keyId, batchId, index };
      }
    }
    return undefined;
  }
}
