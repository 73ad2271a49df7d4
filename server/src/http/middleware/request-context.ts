// X-Request-Id on every response (the caller's, if it sent a sane one) and one log line per
// request: method, path, status, ms, request id. Never headers, bodies or query strings.

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../logger.ts';

const SANE_ID = /^[\w.:@-]{1,128}$/;

export function requestContext(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const sent = req.get('X-Request-Id');
    const requestId = sent && SANE_ID.test(sent) ? sent : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    res.on('finish', () => {
      log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started), request_id: requestId }, 'request');
    });
    next();
  };
}
