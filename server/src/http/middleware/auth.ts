// The two bearer schemes: `api_key` resolves an API key to its account (res.locals.account) and
// `admin` checks the admin token. Neither credential opens the other's door. A refusal is one
// generic 401 for the caller, decided before any body is read or any render starts.

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { isApiKeyForm, matchesHash } from '../../accounts/keys.ts';
import { UnknownPlanError, type Account, type KeysService } from '../../services/accounts/keys.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="quire"' };

/** Resolves `Authorization: Bearer sk_live_...` to an account, or answers 401 unauthorized. */
export function apiKeyAuth(keys: KeysService, log: Logger): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const presented = bearerToken(req);
    if (presented === undefined) return next(new ApiError('unauthorized', 'Send an API key as Authorization: Bearer sk_live_...', CHALLENGE));
    let account: Account | undefined;
    try {
      account = isApiKeyForm(presented) ? await keys.authenticate(presented) : undefined;
    } catch (error) {
      if (!(error instanceof UnknownPlanError)) throw error;
      log.error({ request_id: res.getHeader('X-Request-Id'), key_id: error.keyId, plan: error.planId }, 'key on a plan that is not configured');
      return next(new ApiError('forbidden', "This key's plan is not available on this server; ask the operator to move the key to another plan."));
    }
    if (!account) return next(new ApiError('unauthorized', 'The API key is not valid.', CHALLENGE));
    res.locals.account = account;
    next();
  };
}

/** Accepts only the admin token (compared in constant time on hashes), else 401 unauthorized. */
export function adminAuth(adminTokenHash: string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const presented = bearerToken(req);
    if (presented === undefined) return next(new ApiError('unauthorized', 'Send the admin token as Authorization: Bearer <token>.', CHALLENGE));
    if (!matchesHash(presented, adminTokenHash)) return next(new ApiError('unauthorized', 'The admin token is not valid.', CHALLENGE));
    next();
  };
}

/** The account that api_key authentication put on the response. */
export function accountOf(res: Response): Account {
  const account = res.locals.account as Account | undefined;
  if (!account) throw new Error('accountOf called on a route without api_key authentication');
  return account;
}

/** The key of a route that also has an admin twin (routes/admin-einvoice.ts): none under the admin token. */
export function optionalAccountOf(res: Response): Account | undefined {
  return res.locals.account as Account | undefined;
}

/** The token of `Authorization: Bearer <token>`, if the header has that form. */
export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(req.get('Authorization') ?? '');
  return match?.[1];
}
