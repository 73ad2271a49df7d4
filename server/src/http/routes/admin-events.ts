// GET /admin/v1/events (docs/api.md#admin-event-stream): the internal event bus as Server-Sent
// Events for the admin window: batch.created, batch.progress, batch.completed, batch.webhook and
// usage.changed, each `event: <type>` with JSON `data` naming its batch or key. A comment every
// 15 s keeps proxies from closing an idle stream; the listener goes when the stream does.

import { operation } from '../operation.ts';
import type { EventBus } from '../../events.ts';

const KEEP_ALIVE_MS = 15_000;
/** A reader this far behind is cut off (it reconnects and reads the state over HTTP). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export function adminEventOperations(events: EventBus) {
  return [
    operation({
      method: 'get',
      path: '/admin/v1/events',
      summary: 'Server-Sent Events: batch progress and usage changes',
      description:
        'A text/event-stream. Events: batch.created, batch.progress (one item ended: index, item_status), batch.completed, ' +
        'batch.webhook (a delivery try: attempt, ok, status_code) with batch_id, key_id, status, total, succeeded, failed; ' +
        'usage.changed with key_id, month, used, limit, plan. Nothing is replayed: read the current state over HTTP after connecting. ' +
        'Instances sharing one PostgreSQL (DATABASE_URL) share this stream: each carries the events of all of them, in the same order; ' +
        "a render's events are sent before its answer.",
      tag: 'Admin: batches and events',
      auth: 'admin',
      responses: { 200: { description: 'The event stream (never ends on its own).', body: 'sse' } },
      errors: ['unauthorized'],
      handler: (_input, _req, res) => {
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        res.write('retry: 3000\n: connected\n\n');
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          clearInterval(keepAlive);
          unsubscribe();
          res.end();
        };
        const unsubscribe = events.subscribe((event) => {
          if (res.writableLength > MAX_BUFFERED_BYTES) return end();
          res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
        }, end);
        const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
        keepAlive.unref();
        // The response's close, not the request's: a GET's request closes as soon as it is read.
        res.on('close', end);
        res.on('error', end);
      },
    }),
  ];
}
