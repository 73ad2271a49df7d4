// The internal event bus: batch progress, webhook attempts, usage changes, every render's end and
// each instance's renderer state (the Activity screen), published by the
// services and the queue, read by the admin event stream (GET /admin/v1/events). In memory for
// one instance; several instances on PostgreSQL share it through LISTEN/NOTIFY
// (stores/pg/event-bus.ts). Either way a subscriber that was not listening misses events and
// reads the current state over HTTP.
// Event data is already in wire form (snake_case), since the stream sends it as it is.

import { EventEmitter } from 'node:events';
import type { InstanceStats, RenderActivity } from './shapes/activity-json.ts';

export type { InstanceStats, RenderActivity };

export interface BatchEventData {
  batch_id: string;
  key_id: string;
  status: 'queued' | 'processing' | 'completed';
  total: number;
  succeeded: number;
  failed: number;
}

export interface ServerEventMap {
  /** A batch was accepted (in the call or for the background). */
  'batch.created': BatchEventData;
  /** One item of a batch ended (succeeded or failed). */
  'batch.progress': BatchEventData & { index: number; item_status: 'succeeded' | 'failed' };
  /** Every item of a batch ended. */
  'batch.completed': BatchEventData;
  /** A webhook delivery was tried. */
  'batch.webhook': { batch_id: string; key_id: string; attempt: number; ok: boolean; status_code: number | null; webhook_status: string };
  /** A key's monthly count changed. */
  'usage.changed': { key_id: string; month: string; used: number; limit: number; plan: string };
  /** A render ended (succeeded or failed): the Activity screen's table and charts. */
  'render.completed': RenderActivity;
  /** An instance's renderer, every few seconds (services/accounts/activity.ts). */
  'instance.stats': InstanceStats;
}

export type ServerEventType = keyof ServerEventMap;

export type ServerEvent = { [K in ServerEventType]: { type: K; data: ServerEventMap[K] } }[ServerEventType];

export class EventBus {
  private readonly emitter = new EventEmitter();
  protected closed = false;

  constructor() {
    // One listener per open admin stream; there is no leak to warn about.
    this.emitter.setMaxListeners(0);
  }

  /** Tells every subscriber, synchronously; a throwing subscriber does not stop the others. */
  publish<K extends ServerEventType>(type: K, data: ServerEventMap[K]): void {
    this.deliver({ type, data } as ServerEvent);
  }

  /**
   * Resolves once the events published so far have reached the bus every instance reads. In memory
   * they already have. A render awaits it before answering,
   * so a caller that gets the answer and then calls another instance sees the two renders' events
   * in that order on every stream (stores/pg/event-bus.ts).
   */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** Hands an event to this instance's subscribers. */
  protected deliver(event: ServerEvent): void {
    if (this.closed) return;
    this.emitter.emit('event', event);
  }

  /** Listens to every event until the returned function is called or the bus closes (onClose). */
  subscribe(listener: (event: ServerEvent) => void, onClose: () => void = () => undefined): () => void {
    const safe = (event: ServerEvent) => {
      try {
        listener(event);
      } catch {
        // A subscriber's failure is its own (a stream that went away).
      }
    };
    this.emitter.on('event', safe);
    this.emitter.on('close', onClose);
    return () => {
      this.emitter.off('event', safe);
      this.emitter.off('close', onClose);
    };
  }

  subscriberCount(): number {
    return this.emitter.listenerCount('event');
  }

  /** Shutdown: subscribers are told to end (their streams close) and nothing more is published. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emitter.emit('close');
    this.emitter.removeAllListeners();
  }
}
