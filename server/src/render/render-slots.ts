// Admission control for the renderer: a fixed number of slots, shared fairly between tenants.
// Interactive renders (POST /v1/pdf, the playground) wait in a bounded, time-limited line and are
// refused at once when it is full, so callers can answer 503 with Retry-After instead of piling up
// work that Chromium cannot do faster (503 renderer_busy;
// docs/decisions.md#two-render-slots-and-a-bounded-queue). Background renders (batch items, template
// references) wait as long as it takes, and a freed slot always goes to an interactive waiter first;
// the next waiter in line is never refused for background work alone (issue 40).
// Fairness (issue 11): each tenant (a key, or the playground) has its own queue and a cap on its
// renders in flight; waiting renders are served round-robin across tenants, so one tenant's flood
// never starves another tenant's single request. Knows tenants only as ids and numbers.

import { RendererBusyError, RendererClosedError } from './errors.ts';

export type RenderPriority = 'interactive' | 'background';

/** Who a render is for, as admission control sees it. */
export interface Tenant {
  /** A key id, 'playground', ...: renders of one id share its cap and its queue. */
  id: string;
  /** Interactive renders this tenant may have in flight at once (its plan's concurrency). */
  concurrency: number;
}

/** Renders that name no tenant share this one, with no cap of their own. */
const UNNAMED: Tenant = { id: '', concurrency: Number.POSITIVE_INFINITY };

interface Waiter {
  tenant: Tenant;
  priority: RenderPriority;
  grant: () => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** Granted a slot already (possibly within acquire itself): no refusal, no timeout. */
  served: boolean;
}

export interface SlotStats {
  size: number;
  busy: number;
  /** Interactive renders waiting for a slot. */
  queued: number;
  /** Background renders waiting for a slot. */
  backgroundQueued: number;
}

/**
 * A round-robin of per-tenant queues: the Map's insertion order is the turn order, and a tenant
 * that is served moves to the back.
 */
class FairQueue {
  private readonly queues = new Map<string, Waiter[]>();
  size = 0;

  push(waiter: Waiter): void {
    const queue = this.queues.get(waiter.tenant.id);
    if (queue) queue.push(waiter);
    else this.queues.set(waiter.tenant.id, [waiter]);
    this.size++;
  }

  waiting(tenantId: string): number {
    return this.queues.get(tenantId)?.length ?? 0;
  }

  /** The first waiter of the first tenant, in turn order, that `mayRun` admits: the next one served. */
  peekNext(mayRun: (tenant: Tenant) => boolean): Waiter | undefined {
    for (const queue of this.queues.values()) if (mayRun(queue[0]!.tenant)) return queue[0];
    return undefined;
  }

  /** Takes peekNext()'s waiter; its tenant moves to the back of the turn order. */
  takeNext(mayRun: (tenant: Tenant) => boolean): Waiter | undefined {
    const waiter = this.peekNext(mayRun);
    if (!waiter) return undefined;
    const queue = this.queues.get(waiter.tenant.id)!;
    queue.shift();
    this.size--;
    this.queues.delete(waiter.tenant.id);
    if (queue.length > 0) this.queues.set(waiter.tenant.id, queue);
    return waiter;
  }

  remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.tenant.id);
    const index = queue?.indexOf(waiter) ?? -1;
    if (index < 0) return;
    queue!.splice(index, 1);
    this.size--;
    if (queue!.length === 0) this.queues.delete(waiter.tenant.id);
  }

  drain(): Waiter[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.size = 0;
    return all;
  }
}

export class RenderSlots {
  private busy = 0;
  /** Slots held by background renders (a batch item, a template version's reference). */
  private busyBackground = 0;
  private closed = false;
  private readonly interactive = new FairQueue();
  private readonly background = new FairQueue();
  /** Interactive renders in flight per tenant id (the cap counts these only). */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly size: number,
    /** Interactive renders that may wait (0: none); past it, a tenant with nothing waiting may still queue one. */
    private readonly queueSize: number,
    private readonly queueTimeoutMs: number,
    /** A rough time one render takes, for Retry-After. */
    private readonly typicalRenderMs = () => 1000,
  ) {}

  /**
   * Waits for a free slot and returns the function that gives it back (call it exactly once).
   * An interactive render waits behind its tenant's cap and takes its turn among tenants; it is
   * refused with RendererBusyError when the line is full or the wait runs past the queue timeout.
   */
  async acquire(priority: RenderPriority = 'interactive', tenant: Tenant = UNNAMED): Promise<() => void> {
    if (this.closed) throw new RendererClosedError('the renderer is shutting down');
    const line = priority === 'interactive' ? this.interactive : this.background;
    // The line's bound must not let one tenant's flood shut everyone else out: a tenant with
    // nothing waiting yet is let in even past the bound (at most one extra waiter per tenant).
    // A queue size of 0 means no waiting at all.
    const mayWait = priority === 'background' || line.size < this.queueSize || (this.queueSize > 0 && line.waiting(tenant.id) === 0);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { tenant, priority, grant: resolve, fail: reject, timer: undefined, served: false };
      line.push(waiter);
      this.dispatch();
      if (waiter.served) return;
      if (!mayWait) {
        line.remove(waiter);
        return reject(new RendererBusyError(this.retryAfterSeconds(), 'every render slot is busy and the wait queue is full'));
      }
      if (priority === 'interactive' && this.queueTimeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          // Waiting only for background work (a batch item, a just-saved template's reference, a
          // LibreOffice starting for one) is no overload: the next free slot is this waiter's, and
          // the render in it ends within its own budget. Refusing would fail a lone request for
          // housekeeping it never asked for.
          if (this.isNextBehindBackground(waiter)) return;
          line.remove(waiter);
          reject(new RendererBusyError(this.retryAfterSeconds(), `no render slot came free within ${this.queueTimeoutMs} ms`));
        }, this.queueTimeoutMs);
      }
    });
    return this.releaser(priority, tenant);
  }

  stats(): SlotStats {
    return { size: this.size, busy: this.busy, queued: this.interactive.size, backgroundQueued: this.background.size };
  }

  /** Refuses new work and fails everything still waiting. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.interactive.drain(), ...this.background.drain()]) {
      clearTimeout(waiter.timer);
      waiter.fail(new RendererClosedError('the renderer is shutting down'));
    }
  }

  /** Hands free slots to waiters: interactive ones first, round-robin across tenants under their cap. */
  private dispatch(): void {
    while (this.busy < this.size) {
      const next = this.interactive.takeNext((tenant) => this.mayRun(tenant)) ?? this.background.takeNext(() => true);
      if (!next) return;
      this.busy++;
      if (next.priority === 'background') this.busyBackground++;
      if (next.priority === 'interactive') this.running.set(next.tenant.id, (this.running.get(next.tenant.id) ?? 0) + 1);
      clearTimeout(next.timer);
      next.served = true;
      next.grant();
    }
  }

  private releaser(priority: RenderPriority, tenant: Tenant): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy--;
      if (priority === 'background') this.busyBackground--;
      if (priority === 'interactive') {
        const left = (this.running.get(tenant.id) ?? 1) - 1;
        if (left > 0) this.running.set(tenant.id, left);
        else this.running.delete(tenant.id);
      }
      this.dispatch();
    };
  }

  /** Whether the waiter is the next one a free slot goes to while background renders hold slots. */
  private isNextBehindBackground(waiter: Waiter): boolean {
    return this.busyBackground > 0 && this.interactive.peekNext((tenant) => this.mayRun(tenant)) === waiter;
  }

  private mayRun(tenant: Tenant): boolean {
    return (this.running.get(tenant.id) ?? 0) < tenant.concurrency;
  }

  private retryAfterSeconds(): number {
    const backlog = this.busy + this.interactive.size;
    return Math.max(1, Math.ceil((backlog * this.typicalRenderMs()) / this.size / 1000));
  }
}
