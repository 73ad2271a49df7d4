// The background batch backlog (BATCH_QUEUE_*, issue 11) as the batch stores count it: items and
// stored request bytes of background batches not yet completed, per key and in total. A store
// admits a new background batch and records it in one step (BatchStore.create with limits), so
// concurrent creations cannot go past a cap: the files count in memory (one process owns
// DATA_DIR), PostgreSQL counts the batches table under an advisory lock (stores/pg/batches.ts).
// What a full backlog answers (429, 503, Retry-After) is services/batches/backlog.ts's business.

export interface BacklogLimits {
  itemsPerKey: number;
  items: number;
  bytesPerKey: number;
  bytes: number;
}

export interface BacklogLoad {
  items: number;
  bytes: number;
}

/** A background batch would not fit: past its key's caps ('key') or every key's together ('all'). */
export class BacklogFullError extends Error {
  constructor(
    readonly scope: 'key' | 'all',
    /** What was already waiting in that scope. */
    readonly load: BacklogLoad,
    readonly limits: BacklogLimits,
  ) {
    super(`the background batch backlog is full (${scope === 'key' ? 'this key' : 'all keys'}: ${load.items} items, ${load.bytes} bytes waiting)`);
    this.name = 'BacklogFullError';
  }
}

/** Throws BacklogFullError when a batch of `items` items and `bytes` request bytes does not fit beside what waits. */
export function checkBacklog(waiting: { key: BacklogLoad; all: BacklogLoad }, items: number, bytes: number, limits: BacklogLimits): void {
  if (waiting.key.items + items > limits.itemsPerKey || waiting.key.bytes + bytes > limits.bytesPerKey) throw new BacklogFullError('key', waiting.key, limits);
  if (waiting.all.items + items > limits.items || waiting.all.bytes + bytes > limits.bytes) throw new BacklogFullError('all', waiting.all, limits);
}

/** The files' count, in memory: background batches from creation (or start-up) until they complete. */
export class BacklogCounter {
  private readonly batches = new Map<string, BacklogLoad & { keyId: string }>();
  private readonly keys = new Map<string, BacklogLoad>();
  private readonly total: BacklogLoad = { items: 0, bytes: 0 };

  /** Checks and counts a batch at once (no await in between: nothing else is admitted meanwhile). */
  admit(batchId: string, keyId: string, items: number, bytes: number, limits: BacklogLimits): void {
    checkBacklog({ key: this.keys.get(keyId) ?? { items: 0, bytes: 0 }, all: this.total }, items, bytes, limits);
    this.add(batchId, keyId, items, bytes);
  }

  /** Counts a batch until remove() is called for it. */
  add(batchId: string, keyId: string, items: number, bytes: number): void {
    if (this.batches.has(batchId)) return;
    this.batches.set(batchId, { keyId, items, bytes });
    const key = this.keys.get(keyId) ?? { items: 0, bytes: 0 };
    this.keys.set(keyId, { items: key.items + items, bytes: key.bytes + bytes });
    this.total.items += items;
    this.total.bytes += bytes;
  }

  /** A batch completed (or was never recorded): its items and bytes no longer count. */
  remove(batchId: string): void {
    const load = this.batches.get(batchId);
    if (!load) return;
    this.batches.delete(batchId);
    const key = this.keys.get(load.keyId)!;
    if (key.items === load.items && key.bytes === load.bytes) this.keys.delete(load.keyId);
    else this.keys.set(load.keyId, { items: key.items - load.items, bytes: key.bytes - load.bytes });
    this.total.items -= load.items;
    this.total.bytes -= load.bytes;
  }
}
