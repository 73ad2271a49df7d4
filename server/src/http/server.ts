// The express app: request context, the operations (authentication, then body parsing), docs
// and metrics, then the 404 fallback and the one error handler. No business logic lives here.

import express, { type RequestHandler } from 'express';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { errorHandler } from './error-handler.ts';
import { requestContext } from './middleware/request-context.ts';
import { jsonBody } from './middleware/json-body.ts';
import type { TrustProxy } from '../config.ts';
import { mountOperations, type AuthMiddleware, type Operation } from './operation.ts';
import { buildOpenApi } from './openapi.ts';
import { mountDocs, mountMetrics } from './routes/meta.ts';
import type { Registry } from 'prom-client';

export interface HttpAppOptions {
  operations: readonly Operation[];
  auth: AuthMiddleware;
  log: Logger;
  version: string;
  docs: boolean;
  metrics?: Registry;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (req.ip); false: the socket's peer. */
  trustProxy?: TrustProxy;
  /** Extra routers (static UI pages) mounted before the 404 fallback. */
  extra?: RequestHandler[];
}

export function createHttpApp(options: HttpAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', trustProxySetting(options.trustProxy ?? false));
  app.use(requestContext(options.log));
  const router = express.Router();
  mountOperations(router, options.operations, options.auth, jsonBody);
  if (options.docs) {
    const document = buildOpenApi(options.operations, options.version);
    mountDocs(router, () => document);
  }
  if (options.metrics) mountMetrics(router, options.metrics);
  app.use(router);
  for (const handler of options.extra ?? []) app.use(handler);
  app.use((req, _res, next) => next(new ApiError('not_found', `There is no ${req.method} ${req.path}.`)));
  app.use(errorHandler(options.log));
  return app;
}

/** TRUST_PROXY in the form express takes: a hop count, a list of addresses/CIDRs, or false. */
function trustProxySetting(trust: TrustProxy): boolean | number | string[] {
  return typeof trust === 'object' ? [...trust] : trust;
}
