// RequestTracker on a scripted session and clock: which requests count for networkidle0 on the
// virtual clock, and when a request's place on that clock was read too late to be exact (issue 34:
// full Chromium's own favicon fetch moved the network-idle window on a loaded machine). No browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { CdpSession } from '../../../server/src/render/cdp-session.ts';
import { RequestTracker } from '../../../server/src/render/request-tracker.ts';

/** Network events on demand; commands are not used by the tracker. */
function eventSession(): CdpSession & EventEmitter {
  return Object.assign(new EventEmitter(), { send: async () => ({}) }) as unknown as CdpSession & EventEmitter;
}

/** A page clock whose readings are answered by hand, in order. */
function manualClock() {
  const waiting: ((at: number) => void)[] = [];
  return {
    now: () => new Promise<number>((resolve) => waiting.push(resolve)),
    answer: (at: number) => waiting.shift()!(at),
  };
}

const page = (requestId: string, url: string) => ({ requestId, loaderId: 'L', type: 'Image', initiator: { type: 'parser' }, request: { url } });

test("the browser's own favicon fetch is not one of the page's requests", async () => {
  const session = eventSession();
  const clock = manualClock();
  const tracker = new RequestTracker(session, clock);
  session.emit('Network.requestWillBeSent', {
    requestId: 'f',
    loaderId: 'L',
    type: 'Other',
    initiator: { type: 'other' },
    request: { url: 'http://r1.render.invalid/favicon.ico' },
  });
  await tracker.none();
  assert.equal(await tracker.lastStart(), undefined, 'no start was read for it');
  tracker.stop();
});

test("a request's start is read on the clock while it is in flight; read after it ended, it is marked late", async () => {
  const session = eventSession();
  const clock = manualClock();
  const tracker = new RequestTracker(session, clock);
  session.emit('Network.requestWillBeSent', page('a', 'http://fixture/a.png'));
  clock.answer(1000);
  await new Promise((resolve) => setImmediate(resolve));
  session.emit('Network.loadingFinished', { requestId: 'a' });
  assert.deepEqual(await tracker.lastStart(), { at: 1000, lateUrl: undefined });

  session.emit('Network.requestWillBeSent', page('b', 'http://fixture/b.png'));
  // Answered from memory: it ended before the clock's reading came back.
  session.emit('Network.loadingFinished', { requestId: 'b' });
  clock.answer(1250);
  assert.deepEqual(await tracker.lastStart(), { at: 1250, lateUrl: 'http://fixture/b.png' });
  tracker.stop();
});
