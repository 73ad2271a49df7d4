// Requests below fetch's level, for what fetch hides: a chunked body with no Content-Length written
// with backpressure, and which kept-alive socket carried a response.

import http from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
  socket: unknown;
}

/** One request on the agent's (single, kept-alive) connection; `write` writes the body, or none is sent. */
export function sendRaw(
  agent: http.Agent,
  port: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  write?: (req: http.ClientRequest) => void,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port, method, path, headers });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: req.socket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (write) write(req);
    else req.end();
  });
}

/** Writes `prefix`, `megabytes` of filler and `suffix` as a chunked body (no Content-Length), with backpressure as a real client would. */
export function writeChunked(req: http.ClientRequest, megabytes: number, prefix = '', suffix = ''): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  if (prefix) req.write(prefix);
  let left = (megabytes * 1024 * 1024) / chunk.length;
  const writeMore = () => {
    while (left > 0) {
      left--;
      if (!req.write(chunk)) return void req.once('drain', writeMore);
    }
    req.end(suffix);
  };
  writeMore();
}
