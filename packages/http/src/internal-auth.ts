import type { RequestHandler } from 'express';
import { AppError } from '@partner/contracts';
import {
  INTERNAL_TOKEN_HEADER,
  InternalTokenVerifier,
  type KeyPrincipal,
  type OwnerPrincipal,
  type OwnerRef,
  type Principal,
} from '@partner/auth';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal: Principal;
    }
  }
}

/**
 * Services are not public: every request must carry the gateway's internal token for this service.
 * Without one the answer is 401, whatever the route, so a service reached directly reveals nothing.
 */
export function requireInternalToken(options: { publicKey: string; audience: string }): RequestHandler {
  const verifier = new InternalTokenVerifier(options.publicKey, options.audience);
  return (req, _res, next) => {
    const token = req.headers[INTERNAL_TOKEN_HEADER];
    if (typeof token !== 'string' || token === '') {
      return next(new AppError('unauthorized', 'This service only accepts requests from the gateway.'));
    }
    try {
      req.principal = verifier.verify(token);
    } catch {
      return next(new AppError('unauthorized', 'The internal token is invalid or expired.'));
    }
    next();
  };
}

/** The owner a route acts for: the calling key's, or the signed-in person's that console acts for. */
export function ownerPrincipal(principal: Principal): OwnerPrincipal {
  if (principal.kind !== 'key' && principal.kind !== 'owner') throw new AppError('invalid_api_key', 'This route needs an API key.');
  return principal;
}

/** Operator routes: every owner for the operator (null), one owner for a signed-in person; no one else. */
export function operatorScope(principal: Principal): OwnerRef | null {
  if (principal.kind === 'operator') return null;
  if (principal.kind === 'owner') return principal.owner;
  throw new AppError('unauthorized', 'This route is for console only.');
}

/** The calling key, for routes that need one (every route but public asset files). */
export function keyPrincipal(principal: Principal): KeyPrincipal {
  if (principal.kind !== 'key') throw new AppError('invalid_api_key', 'This route needs an API key.');
  return principal;
}
