// Admission control for the renderer: a fixed number of slots and two waiting lines.
// Interactive renders (POST /v1/pdf) wait in a bounded, time-limited line and are refused at once
// when it is full, so callers can answer 503 with Retry-After instead of piling up work that
// Chromium cannot do faster (CONTRACT: 503 renderer_busy). Background renders (batch items) wait
// as long as it takes, and a freed slot always goes to an interactive waiter first, so a long batch
// delays an interactive render by at most about one render.

import { RendererBusyError, RendererClosedError } from './errors.ts';

export type RenderPriority = 'interactive' | 'background';

interface Waiter {
  grant: () => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

export interface SlotStats {
  size: number;
  busy: number;
  /** Interactive renders waiting for a slot. */
  queued: number;
  /** Background renders waiting for a slot. */
  backgroundQueued: number;
}

export class RenderSlots {
  private busy = 0;
  private closed = false;
  private readonly interactive: Waiter[] = [];
  private readonly background: Waiter[] = [];

  constructor(
    private readonly size: number,
    private readonly queueSize: number,
    private readonly queueTimeoutMs: number,
    /** A rough time one render takes, for Retry-After. */
    private readonly typicalRenderMs = () => 1000,
  ) {}

  /** Waits for a free slot and returns the function that gives it back (call it exactly once). */
  async acquire(priority: RenderPriority = 'interactive'): Promise<() => void> {
    if (this.closed) throw new RendererClosedError('the renderer is shutting down');
    const line = priority === 'interactive' ? this.interactive : this.background;
    const ahead = priority === 'interactive' ? this.interactive.length : this.interactive.length + this.background.length;
    if (this.busy < this.size && ahead === 0) {
      this.busy++;
      return this.releaser();
    }
    if (priority === 'interactive' && this.interactive.length >= this.queueSize) {
      throw new RendererBusyError(this.retryAfterSeconds(), 'every render slot is busy and the wait queue is full');
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, fail: reject, timer: undefined };
      if (priority === 'interactive' && this.queueTimeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          remove(line, waiter);
          reject(new RendererBusyError(this.retryAfterSeconds(), `no render slot came free within ${this.queueTimeoutMs} ms`));
        }, this.queueTimeoutMs);
      }
      line.push(waiter);
    });
    return this.releaser();
  }

  stats(): SlotStats {
    return { size: this.size, busy: this.busy, queued: this.interactive.length, backgroundQueued: this.background.length };
  }

  /** Refuses new work and fails everything still waiting. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.interactive.splice(0), ...this.background.splice(0)]) {
      clearTimeout(waiter.timer);
      waiter.fail(new RendererClosedError('the renderer is shutting down'));
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.interactive.shift() ?? this.background.shift();
      if (next) {
        // The slot passes straight to the next waiter: busy stays the same.
        clearTimeout(next.timer);
        next.grant();
      } else {
        this.busy--;
      }
    };
  }

  private retryAfterSeconds(): number {
    const backlog = this.busy + this.interactive.length;
    return Math.max(1, Math.ceil((backlog * this.typicalRenderMs()) / this.size / 1000));
  }
}

function remove(line: Waiter[], waiter: Waiter): void {
  const index = line.indexOf(waiter);
  if (index >= 0) line.splice(index, 1);
}
