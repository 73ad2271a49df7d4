// Admission control for the renderer: a fixed number of slots and a bounded, time-limited wait.
// It refuses at once when the queue is full, so callers can answer 503 with Retry-After instead
// of piling up work that Chromium cannot do faster (CONTRACT: 503 renderer_busy).

import { RendererBusyError, RendererClosedError } from './errors.ts';

interface Waiter {
  grant: () => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

export interface SlotStats {
  size: number;
  busy: number;
  queued: number;
}

export class RenderSlots {
  private busy = 0;
  private closed = false;
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly size: number,
    private readonly queueSize: number,
    private readonly queueTimeoutMs: number,
    /** A rough time one render takes, for Retry-After. */
    private readonly typicalRenderMs = () => 1000,
  ) {}

  /** Waits for a free slot and returns the function that gives it back (call it exactly once). */
  async acquire(): Promise<() => void> {
    if (this.closed) throw new RendererClosedError('the renderer is shutting down');
    if (this.busy < this.size && this.waiters.length === 0) {
      this.busy++;
      return this.releaser();
    }
    if (this.waiters.length >= this.queueSize) {
      throw new RendererBusyError(this.retryAfterSeconds(), 'every render slot is busy and the wait queue is full');
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, fail: reject, timer: undefined };
      if (this.queueTimeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          this.remove(waiter);
          reject(new RendererBusyError(this.retryAfterSeconds(), `no render slot came free within ${this.queueTimeoutMs} ms`));
        }, this.queueTimeoutMs);
      }
      this.waiters.push(waiter);
    });
    return this.releaser();
  }

  stats(): SlotStats {
    return { size: this.size, busy: this.busy, queued: this.waiters.length };
  }

  /** Refuses new work and fails everything still waiting. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.fail(new RendererClosedError('the renderer is shutting down'));
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) {
        // The slot passes straight to the next waiter: busy stays the same.
        clearTimeout(next.timer);
        next.grant();
      } else {
        this.busy--;
      }
    };
  }

  private remove(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
  }

  private retryAfterSeconds(): number {
    const backlog = this.busy + this.waiters.length;
    return Math.max(1, Math.ceil((backlog * this.typicalRenderMs()) / this.size / 1000));
  }
}
