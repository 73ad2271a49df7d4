// X-Request-Id on every response (the caller's, if it sent a sane one) and one log line per
// request: method, path, status, ms, request id. Never headers, bodies or query strings. With
// OpenTelemetry on, the request is a server span continuing the caller's traceparent, and the rest
// of the request (its log lines and every span below) runs inside it.

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../logger.ts';
import { serverSpan } from '../../telemetry/spans.ts';

const SANE_ID = /^[\w.:@-]{1,128}$/;

export function requestContext(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const sent = req.get('X-Request-Id');
    const requestId = sent && SANE_ID.test(sent) ? sent : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    const span = serverSpan(req.method, req.path, req.headers);
    res.on('finish', () => {
      const ms = Math.round(performance.now() - started);
      const line = { method: req.method, path: req.path, status: res.statusCode, ms, request_id: requestId };
      if (!span) return log.info(line, 'request');
      span.run(() => log.info(line, 'request'));
      span.end(res.statusCode, req.route ? `${req.baseUrl}${req.route.path}` : undefined);
    });
    if (span) span.run(next);
    else next();
  };
}
