// GET /admin/v1/events (docs/api.md#admin-event-stream: Server-Sent Events of batch progress and usage changes).
// EventSource cannot send the admin token, so the stream is read with fetch; it reconnects after
// a drop, and stops for good when the server has no such endpoint.

import { ApiFailure, call } from './client.ts';

export interface ServerEvent {
  type: string;
  data: unknown;
}

export interface EventsHandle {
  close(): void;
}

export function subscribeEvents(onEvent: (event: ServerEvent) => void, onState?: (state: 'live' | 'reconnecting' | 'unavailable') => void): EventsHandle {
  const controller = new AbortController();
  let retryMs = 1000;
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await call('GET', '/admin/v1/events', { admin: true, signal: controller.signal });
        onState?.('live');
        retryMs = 1000;
        await readStream(response, onEvent);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiFailure && (error.status === 404 || error.status === 405 || error.status === 401)) {
          onState?.('unavailable');
          return;
        }
      }
      if (controller.signal.aborted) return;
      onState?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      retryMs = Math.min(retryMs * 2, 15_000);
    }
  };
  void run();
  return { close: () => controller.abort() };
}

async function readStream(response: Response, onEvent: (event: ServerEvent) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const event = parseBlock(block);
      if (event) onEvent(event);
    }
  }
}

function parseBlock(block: string): ServerEvent | undefined {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const [field, ...rest] = line.split(':');
    const value = rest.join(':').replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join('\n');
  try {
    return { type, data: JSON.parse(text) as unknown };
  } catch {
    return { type, data: text };
  }
}
