import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@partner/contracts';
import type { Db } from '@partner/db';
import { listMemberships } from './accounts.repository.js';
import { OPERATOR } from './actor.js';
import { sameSecret, type Sessions } from './sessions.js';

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The routes that sign people in: open to a caller nobody knows yet. */
export const SIGN_IN_ROUTES = new Set([
  'POST /console/sign-in/password',
  'POST /console/sign-in/link',
  'POST /console/sign-in/link/redeem',
]);
/** Who is signed in, answered for anyone: "nobody" is an answer (`data: null`), not an error. */
const WHO_AM_I = 'GET /console/session';
/** Every route a caller without credentials may reach. */
export const OPEN_ROUTES = new Set([...SIGN_IN_ROUTES, WHO_AM_I]);

/** One message for every missing or wrong credential: a near-miss token is told nothing more. */
const UNKNOWN_CALLER = 'Sign in to the dashboard, or send Authorization: Bearer <CONSOLE_ADMIN_TOKEN>.';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Console's door. `Authorization: Bearer <CONSOLE_ADMIN_TOKEN>` (compared in constant time) is an
 * operator; a dashboard session cookie is its account, and every change it makes must carry the
 * session's `X-CSRF-Token`. Anything else is 401.
 */
export function consoleGuard(deps: { adminToken: string; db: Db; sessions: Sessions; now: () => Date }): RequestHandler {
  const adminDigest = digest(deps.adminToken);
  return async (req, _res, next) => {
    const route = `${req.method} ${req.path}`;
    if (SIGN_IN_ROUTES.has(route)) return next();
    if (req.headers.authorization !== undefined) {
      const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(req.headers.authorization);
      if (!match || !timingSafeEqual(digest(match[1]!), adminDigest)) throw new AppError('unauthorized', UNKNOWN_CALLER);
      req.actor = OPERATOR;
      return next();
    }
    const session = await deps.sessions.find(req, deps.now());
    if (!session) {
      if (route === WHO_AM_I) return next();
      throw new AppError('unauthorized', deps.sessions.hasCookie(req) ? 'Your session has ended. Sign in again.' : UNKNOWN_CALLER);
    }
    const csrf = req.headers['x-csrf-token'];
    if (CHANGING.has(req.method) && (typeof csrf !== 'string' || !sameSecret(csrf, session.csrfToken))) {
      throw new AppError('csrf_token_invalid', "Send the session's csrfToken (GET /console/session) in X-CSRF-Token with every change.");
    }
    req.actor = {
      kind: 'account',
      account: session.account,
      session: {
        tokenHash: session.tokenHash,
        csrfToken: session.csrfToken,
        expiresAt: session.expiresAt,
        mailboxProvenAt: session.mailboxProvenAt,
      },
      memberships: await listMemberships(deps.db, session.account.id),
    };
    next();
  };
}
