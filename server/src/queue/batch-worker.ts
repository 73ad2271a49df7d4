// The background batch worker: hands out queued items fairly (round-robin across keys, then
// across one key's batches, items in order) and keeps a fixed number in flight. Each item runs
// through services/batches/items.ts at background priority, so renders of the render slots go to
// interactive calls first. What is queued here is only a schedule: the items' states live on disk
// (stores/batches.ts) and start-up rebuilds this from them.

import type { Logger } from '../logger.ts';

/** What the worker hands items to (services/batches/batches.ts): runs one, and ends one that could not be run. */
export interface ItemRunner {
  runItem(batchId: string, index: number): Promise<'ended' | 'retry' | 'interrupted'>;
  /** Told when an item's run threw maxTries times: the item must end as failed. */
  onGiveUp(batchId: string, index: number, error: unknown): Promise<void>;
}

export interface BatchWorkerOptions {
  /**
   * Items in flight at once: the render slots (app.ts), since an item handed out is shown
   * "rendering" and must really hold, or be about to hold, a slot.
   */
  inFlight: number;
  log: Logger;
  /** First wait before an item whose run threw (a failed state write) is tried again; doubles each try. */
  retryDelayMs?: number;
  /** Tries in all for an item whose run throws, before it is given up (default 5: 1+2+4+8 s of waits). */
  maxTries?: number;
}

export class BatchWorker {
  /** keyId -> batchId -> item indexes still to hand out. Map order is the round-robin order. */
  private readonly queues = new Map<string, Map<string, number[]>>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** "batchId:index" -> runs that threw so far. */
  private readonly failures = new Map<string, number>();
  private stopped = false;
  private runner: ItemRunner | undefined;

  constructor(private readonly options: BatchWorkerOptions) {}

  /** Starts handing items to the runner (the composition root builds the worker; the batches service runs the items). */
  serve(runner: ItemRunner): void {
    this.runner = runner;
    this.pump();
  }

  /** Queues items of a batch (after those of it already queued) and starts them as room allows. */
  enqueue(keyId: string, batchId: string, indexes: readonly number[]): void {
    if (this.stopped || indexes.length === 0) return;
    let batches = this.queues.get(keyId);
    if (!batches) {
      batches = new Map();
      this.queues.set(keyId, batches);
    }
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
    const runner = this.runner;
    while (runner && !this.stopped && this.running.size < this.options.inFlight) {
      const next = this.next();
      if (!next) return;
      const run: Promise<void> = runner
        .runItem(next.batchId, next.index)
        .then(
          (outcome) => {
            this.failures.delete(`${next.batchId}:${next.index}`);
            if (outcome === 'retry') this.enqueue(next.keyId, next.batchId, [next.index]);
          },
          (error: unknown) => this.retryLater(next, error),
        )
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }

  /** Bounded retries with backoff for an item whose run threw (its state could not be written), then give up. */
  private retryLater(item: { keyId: string; batchId: string; index: number }, error: unknown): void {
    const id = `${item.batchId}:${item.index}`;
    const tries = (this.failures.get(id) ?? 0) + 1;
    const maxTries = this.options.maxTries ?? 5;
    if (tries >= maxTries || this.stopped) {
      this.failures.delete(id);
      if (this.stopped) return; // left as it is on disk: start-up settles it
      this.options.log.error({ err: error, batch_id: item.batchId, index: item.index, tries }, 'batch item could not be run; giving it up');
      const giveUp = this.runner!.onGiveUp(item.batchId, item.index, error).catch((failure: unknown) =>
        this.options.log.error(
          { err: failure, batch_id: item.batchId, index: item.index },
          'batch item given up, but its failure could not be recorded either',
        ),
      );
      this.running.add(giveUp);
      void giveUp.finally(() => this.running.delete(giveUp));
      return;
    }
    this.failures.set(id, tries);
    const delay = (this.options.retryDelayMs ?? 1000) * 2 ** (tries - 1);
    this.options.log.warn({ err: error, batch_id: item.batchId, index: item.index, tries, retry_in_ms: delay }, 'batch item could not be run; trying it again');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(item.keyId, item.batchId, [item.index]);
    }, delay);
    this.timers.add(timer);
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
