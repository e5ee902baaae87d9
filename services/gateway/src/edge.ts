import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { INTERNAL_TOKEN_HEADER, type InternalTokenSigner, type Principal, VISITOR_HEADER } from '@partner/auth';
import { AppError } from '@partner/contracts';
import { authenticate, type AuthenticatedKey } from './auth/authenticate.js';
import type { KeyCache } from './auth/key-cache.js';
import { presentKeyMetadata } from './me/me.js';
import { continueIfAwaited } from './protocol/http-edge-cases.js';
import type { ServiceProxy } from './proxy/proxy.js';
import { checkClientLimit, checkEmbedLimits, type EmbedLimits, visitorOf } from './rate-limit/client-limits.js';
import { limitsFor, type RateLimiter } from './rate-limit/rate-limiter.js';
import type { TestTrafficCaps } from './rate-limit/test-traffic.js';
import { authorize } from './routing/authorize.js';
import { answerPreflight, applyEmbedCors } from './routing/cors.js';
import { createRouter, ROUTES, type Route } from './routing/route-table.js';

export interface EdgeDeps {
  keyCache: KeyCache;
  rateLimiter: RateLimiter;
  /** Test keys' daily caps (their own, and their owner's), kept where a Redis restart cannot erase them. */
  testTraffic: TestTrafficCaps;
  proxy: ServiceProxy;
  tokens: InternalTokenSigner;
  docsUrl: string;
  maxBodyBytes: number;
  /** Proxies in front of the gateway whose X-Forwarded-For is believed (express's `trust proxy`). */
  trustProxyHops: number;
  embedLimits: EmbedLimits;
  /** Public requests and key lookups that reach the database, per client address a minute. */
  clientLimitPerMin: number;
  now: () => Date;
}

/** Publishable keys' concierge routes: what a page's visitors call, and what spends a restaurant's allowance. */
const isVisitorFacing = (route: Route, key: AuthenticatedKey) =>
  key.key.type === 'publishable' &&
  route.access.kind === 'embed' &&
  route.target.kind === 'service' &&
  route.target.service === 'concierge';

/**
 * The public edge for everything under /v1: who is calling, within which limits, on which route,
 * with which rights; then the answer (`/me`) or the owning service, with an internal token.
 * Authentication comes before routing, as with Stripe: without a valid key, nothing is revealed.
 */
export function partnerEdge(deps: EdgeDeps): RequestHandler {
  const router = createRouter(ROUTES);

  const dispatch = async (
    route: Route,
    principal: Principal,
    key: AuthenticatedKey | null,
    req: Request,
    res: Response,
    extra: Record<string, string> = {},
  ) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > deps.maxBodyBytes) {
      throw new AppError('payload_too_large', `Request bodies are limited to ${deps.maxBodyBytes} bytes.`);
    }
    if (route.target.kind === 'local') {
      res.json({ data: presentKeyMetadata(key!, deps.docsUrl) });
      return;
    }
    const service = route.target.service;
    continueIfAwaited(req, res);
    await deps.proxy.forward(service, req, res, {
      [INTERNAL_TOKEN_HEADER]: deps.tokens.tokenFor(principal, service),
      'x-request-id': req.requestId,
      ...extra,
    });
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (!path.startsWith('/v1/') && !path.startsWith('/menu/')) return next();
    const atPath = router.atPath(path);
    if (atPath.embed) {
      applyEmbedCors(req, res);
      if (req.method === 'OPTIONS') return answerPreflight(res);
    }

    const match = router.match(atPath, req.method);
    const chargeClient = () => checkClientLimit(deps.rateLimiter, deps.clientLimitPerMin, visitorOf(req.ip));
    if (match.kind === 'found' && match.route.access.kind === 'public') {
      await chargeClient();
      return dispatch(match.route, { kind: 'public' }, null, req, res);
    }
    if (!path.startsWith('/v1/partner/')) return next();

    const key = await authenticate(req, deps.keyCache, deps.now(), chargeClient);
    res.setHeader('X-Service-Environment', key.environment);

    const decision = await deps.rateLimiter.check(key.key.id, limitsFor(key.key).perMinute);
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new AppError('rate_limited', 'Too many requests for this key. Retry after the number of seconds in Retry-After.', {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    if (key.environment === 'test') await deps.testTraffic.take(key.key.id, key.owner.id);
    if (key.owner.suspended) {
      throw new AppError(
        'account_suspended',
        'The account behind this key is suspended. The key works again once the suspension is lifted.',
      );
    }
    if (match.kind === 'none') throw new AppError('not_found', `No route for ${req.method} ${path}.`);
    if (match.kind === 'method-not-allowed') {
      throw new AppError('method_not_allowed', `${req.method} is not allowed on ${path}.`, {
        headers: { Allow: match.allow.join(', ') },
      });
    }
    authorize(match.route.access, key, req);
    let visitor: Record<string, string> = {};
    if (isVisitorFacing(match.route, key)) {
      const id = visitorOf(req.ip);
      await checkEmbedLimits(deps.rateLimiter, deps.embedLimits, { restaurantId: match.params.id!, keyOwnerId: key.owner.id }, id);
      visitor = { [VISITOR_HEADER]: id };
    }
    const principal: Principal = {
      kind: 'key',
      keyId: key.key.id,
      keyType: key.key.type,
      environment: key.environment,
      scopes: key.key.scopes as Extract<Principal, { kind: 'key' }>['scopes'],
      owner: { kind: key.owner.kind, id: key.owner.id },
    };
    return dispatch(match.route, principal, key, req, res, visitor);
  };
}
