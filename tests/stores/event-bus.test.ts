// The admin event bus (events.ts) on one instance, and across instances through PostgreSQL
// LISTEN/NOTIFY (stores/pg/event-bus.ts): every instance's subscribers get every event, in one
// order that is the same everywhere, an event flushed before another instance publishes comes
// first everywhere, and a closed bus delivers nothing more.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus, type ServerEvent } from '../../server/src/events.ts';
import { PgEventBus } from '../../server/src/stores/pg/event-bus.ts';
import { forEachBackend, type Backend } from './backends.ts';

const usage = (used: number) => ({ key_id: 'key_events', month: '2026-03', used, limit: 100, plan: 'starter' });

async function busOn(backend: Backend, database = backend.kind === 'postgresql' ? backend.database() : undefined): Promise<EventBus> {
  if (!database) return new EventBus();
  return PgEventBus.open(database.pool, database.url);
}

/** Waits until `events` holds `count` entries (a safety net: delivery through PostgreSQL is asynchronous). */
async function collected(events: ServerEvent[], count: number): Promise<ServerEvent[]> {
  const deadline = Date.now() + 20_000;
  while (events.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return events;
}

forEachBackend((backend) => {
  test('subscribers get the events published, in order, until they unsubscribe or the bus closes', async () => {
    const bus = await busOn(backend);
    const seen: ServerEvent[] = [];
    let closed = false;
    const unsubscribe = bus.subscribe(
      (event) => seen.push(event),
      () => {
        closed = true;
      },
    );
    for (let used = 1; used <= 5; used++) bus.publish('usage.changed', usage(used));
    assert.deepEqual(
      (await collected(seen, 5)).map((event) => (event.data as { used: number }).used),
      [1, 2, 3, 4, 5],
    );
    unsubscribe();
    bus.publish('usage.changed', usage(6));
    bus.close();
    assert.equal(closed, false, 'an unsubscribed listener is not told about the close');
    bus.publish('usage.changed', usage(7));
    assert.equal(seen.length, 5);
  });

  if (backend.kind === 'postgresql') {
    test('events of either instance reach both, in the same order on both', async () => {
      const other = await backend.otherInstance();
      const buses = [await busOn(backend), await busOn(backend, other)] as PgEventBus[];
      const seen: ServerEvent[][] = [[], []];
      for (const [at, bus] of buses.entries()) bus.subscribe((event) => seen[at]!.push(event));
      for (let used = 1; used <= 40; used++) buses[used % 2]!.publish('usage.changed', usage(used));
      await Promise.all(buses.map((bus) => bus.flush()));
      const [first, second] = [await collected(seen[0]!, 40), await collected(seen[1]!, 40)];
      assert.equal(first.length, 40);
      assert.deepEqual(first, second);
      // Each instance's own events keep the order it published them in.
      for (const parity of [0, 1]) {
        const own = first.map((event) => (event.data as { used: number }).used).filter((used) => used % 2 === parity);
        assert.deepEqual(
          own,
          [...own].sort((a, b) => a - b),
        );
      }
      for (const bus of buses) bus.close();
    });

    test("an event flushed on one instance comes before the other's later events, on both (a render's answer waits for it)", async () => {
      const other = await backend.otherInstance();
      const buses = [await busOn(backend), await busOn(backend, other)] as PgEventBus[];
      const seen: ServerEvent[][] = [[], []];
      for (const [at, bus] of buses.entries()) bus.subscribe((event) => seen[at]!.push(event));
      // Calls alternating between the instances, each answered after its event was flushed (what a render does).
      for (let used = 1; used <= 20; used++) {
        const bus = buses[used % 2]!;
        bus.publish('usage.changed', usage(used));
        await bus.flush();
      }
      for (const events of seen) {
        assert.deepEqual(
          (await collected(events, 20)).map((event) => (event.data as { used: number }).used),
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
      }
      for (const bus of buses) bus.close();
    });
  }
});
