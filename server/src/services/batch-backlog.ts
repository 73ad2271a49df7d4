// The background batch backlog's caps (issue 11): items and stored request bytes of background
// batches not yet completed, per key and on the whole server. A batch that would go past a key's
// cap is 429 too_many_batches; past the server's, 503 renderer_busy; both with Retry-After.
// Counts live in memory, rebuilt from the store's unfinished batches at start-up.

import { ApiError } from '../errors.ts';

export interface BacklogLimits {
  itemsPerKey: number;
  items: number;
  bytesPerKey: number;
  bytes: number;
}

interface Load {
  items: number;
  bytes: number;
}

export class BatchBacklog {
  private readonly batches = new Map<string, Load & { keyId: string }>();
  private readonly keys = new Map<string, Load>();
  private readonly total: Load = { items: 0, bytes: 0 };

  constructor(
    private readonly limits: BacklogLimits,
    /** Render slots, for the Retry-After estimate (about one item per slot per second). */
    private readonly renderSlots: number,
  ) {}

  /** Throws 429 too_many_batches (the key's share) or 503 renderer_busy (the server's) when a batch would not fit. */
  admit(keyId: string, items: number, bytes: number): void {
    const key = this.keys.get(keyId) ?? { items: 0, bytes: 0 };
    const { limits } = this;
    if (key.items + items > limits.itemsPerKey || key.bytes + bytes > limits.bytesPerKey) {
      throw new ApiError(
        'too_many_batches',
        `This key already has ${key.items} background batch items (${key.bytes} bytes of requests) waiting; the limit is ${limits.itemsPerKey} items and ` +
          `${limits.bytesPerKey} bytes per key. Retry once earlier batches have completed.`,
        { 'Retry-After': this.retryAfter(key.items) },
      );
    }
    if (this.total.items + items > limits.items || this.total.bytes + bytes > limits.bytes) {
      throw new ApiError('renderer_busy', 'The server has too many background batch items waiting; retry later.', { 'Retry-After': this.retryAfter(this.total.items) });
    }
  }

  /** Counts a background batch until remove() is called for it. */
  add(batchId: string, keyId: string, items: number, bytes: number): void {
    if (this.batches.has(batchId)) return;
    this.batches.set(batchId, { keyId, items, bytes });
    const key = this.keys.get(keyId) ?? { items: 0, bytes: 0 };
    this.keys.set(keyId, { items: key.items + items, bytes: key.bytes + bytes });
    this.total.items += items;
    this.total.bytes += bytes;
  }

  /** A batch completed: its items and bytes no longer count. */
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

  private retryAfter(itemsAhead: number): string {
    return String(Math.min(600, Math.max(5, Math.ceil(itemsAhead / this.renderSlots))));
  }
}

/** The bytes a batch's requests take when stored (their JSON). */
export function requestBytes(requests: unknown): number {
  return Buffer.byteLength(JSON.stringify(requests));
}
