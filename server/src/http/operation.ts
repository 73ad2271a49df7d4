// One description per API operation: routing, request validation and the OpenAPI document are
// all built from it, so they cannot drift apart. Routes declare operations; app.ts mounts them.

import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { ApiError, type ErrorCode } from '../errors.ts';
import { parseInput } from './validation.ts';
import type { BodyLimit } from './body-limits.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AuthScheme = 'api_key' | 'admin' | 'none';

export interface ResponseSpec {
  description: string;
  /** JSON body schema, 'pdf' for PDF bytes, 'image' for PNG/JPEG/WebP bytes, 'sse' for an event stream, 'xml' for an XML document, or nothing. */
  body?: z.ZodType | 'pdf' | 'image' | 'sse' | 'text' | 'html' | 'xml';
  headers?: Record<string, string>;
}

export interface Input<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
}

export interface Operation<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: Method;
  /** Express path, e.g. /v1/documents/:document_id */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthScheme;
  body?: B;
  /**
   * The body may be left out (every field of `body` optional): a request with no body bytes, such as
   * a bare `curl -X POST`, is read as `{}`, and the OpenAPI document marks the body not required.
   */
  bodyOptional?: true;
  /** Byte limit of the body, read before anything is parsed (default: REQUEST_BODY's 6 MB; body-limits.ts). */
  bodyLimit?: BodyLimit;
  /** A body read as raw bytes by the handler itself (uploads): its media type, for the document. */
  rawBody?: string;
  /** A body the handler reads and parses itself in several media types (multipart or JSON): their schemas, for the document. */
  bodies?: Record<string, z.ZodType>;
  query?: Q;
  responses: Record<number, ResponseSpec>;
  /** Error codes this operation can answer, for the document. */
  errors: ErrorCode[];
  /** Facts of this server the clients read from the document (OpenAPI x- fields), such as a configured cap. */
  extensions?: Record<`x-${string}`, unknown>;
  handler: (input: Input<z.output<B>, z.output<Q>>, req: Request, res: Response) => Promise<void> | void;
}

/** Declares an operation with its input types inferred from its schemas. */
export function operation<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(op: Operation<B, Q>): Operation {
  return op as unknown as Operation;
}

export type AuthMiddleware = Record<Exclude<AuthScheme, 'none'>, RequestHandler>;

/**
 * Mounts operations on a router; a known path called with another method answers 405. The body
 * is parsed after authentication, so an unauthenticated caller gets 401 without us reading it.
 */
export function mountOperations(
  router: Router,
  operations: readonly Operation[],
  auth: AuthMiddleware,
  bodyParser: (limit?: BodyLimit) => RequestHandler,
): void {
  const methodsByPath = new Map<string, Method[]>();
  for (const op of operations) {
    if (op.bodyOptional && !(op.body?.safeParse({}).success ?? false))
      throw new Error(`${op.method} ${op.path}: bodyOptional needs a body schema that accepts {}`);
    const guards = op.auth === 'none' ? [] : [auth[op.auth]];
    router[op.method](op.path, ...guards, ...(op.body ? [bodyParser(op.bodyLimit)] : []), async (req: Request, res: Response) => {
      const input = {
        body: op.body ? parseJsonBody(op.body, req, op.bodyOptional === true) : undefined,
        query: op.query ? parseInput(op.query, req.query, 'query string') : undefined,
        params: req.params as Record<string, string>,
      };
      await op.handler(input, req, res);
    });
    methodsByPath.set(op.path, [...(methodsByPath.get(op.path) ?? []), op.method]);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = methods.map((m) => m.toUpperCase()).join(', ');
    router.all(path, (req: Request, _res: Response, next: NextFunction) => {
      if (req.method === 'HEAD' && methods.includes('get')) return next();
      next(new ApiError('method_not_allowed', `${req.method} is not allowed on ${path}; use ${allow}`, { Allow: allow }));
    });
  }
}

function parseJsonBody(schema: z.ZodType, req: Request, optional: boolean): unknown {
  if (optional && !hasBody(req)) return parseInput(schema, {});
  if (!req.is('application/json')) {
    throw new ApiError('invalid_request', 'the request body must be JSON, sent with Content-Type: application/json');
  }
  return parseInput(schema, req.body);
}

/** Body bytes announced: a Transfer-Encoding, or a Content-Length above zero (type-is's rule, less the empty body). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isNaN(length) || length > 0;
}
