import type { IncomingMessage, ServerResponse } from 'node:http';
import { INTERNAL_TOKEN_HEADER, type InternalTokenSigner, type Principal, VISITOR_HEADER } from '@partner/auth';
import { AppError, type TEnvironment } from '@partner/contracts';
import {
  type AccessLog,
  type AnswerFacts,
  answerError,
  type Caller,
  callerOf,
  type FaultLog,
  type KeyUseRecorder,
  type Logger,
  newRequestId,
  observeAnswer,
  type RequestFacts,
  sendJson,
  type ServiceMetrics,
  UNMATCHED_ROUTE,
  watchDeadline,
} from '@partner/http';
import { authenticate, bearerToken, claimedEnvironment } from './auth/authenticate.js';
import type { AuthenticatedKey, KeyCache } from './auth/key-cache.js';
import { presentKeyMetadata } from './me/me.js';
import { continueIfAwaited } from './protocol/http-edge-cases.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import type { ServiceProxy } from './proxy/proxy.js';
import { checkClientLimit, checkEmbedLimits, type EmbedLimits, visitorOf } from './rate-limit/client-limits.js';
import { limitsFor, type RateLimitDecision, type RateLimiter, rateLimitHeaders } from './rate-limit/rate-limiter.js';
import type { TestTrafficCaps } from './rate-limit/test-traffic.js';
import { authorize } from './routing/authorize.js';
import { clientAddress } from './routing/client-address.js';
import { answerPreflight, applyEmbedCors } from './routing/cors.js';
import { createRouter, ROUTES, type Route, type RouteMatch } from './routing/route-table.js';

export interface EdgeDeps {
  logger: Logger;
  faults: FaultLog;
  /** Every request is answered by then, 503 with Retry-After at the latest. */
  requestDeadlineMs: number;
  keyCache: KeyCache;
  rateLimiter: RateLimiter;
  /** Test keys' daily caps (their own, and their owner's), kept where a Redis restart cannot erase them. */
  testTraffic: TestTrafficCaps;
  /** When each key was last used (the dashboard shows it). */
  keyUse: KeyUseRecorder;
  proxy: ServiceProxy;
  tokens: InternalTokenSigner;
  docsUrl: string;
  maxBodyBytes: number;
  /** Proxies in front of the gateway whose X-Forwarded-For is believed (see clientAddress). */
  trustProxyHops: number;
  embedLimits: EmbedLimits;
  /** Public requests and key lookups that reach the database, per client address a minute. */
  clientLimitPerMin: number;
  now: () => Date;
  /** Counts and times every request by route template (when `METRICS_PORT` is set)... */
  metrics?: ServiceMetrics;
  /** One line per request. */
  accessLog?: AccessLog;
  /** ...and what only the gateway knows. */
  gatewayMetrics?: GatewayMetrics;
}

const showLimit = (res: ServerResponse, decision: RateLimitDecision) => {
  const headers = rateLimitHeaders(decision);
  for (const name in headers) res.setHeader(name, headers[name]!);
};

/** Publishable keys' concierge routes: what a page's visitors call, and what spends a restaurant's allowance. */
const isVisitorFacing = (route: Route, key: AuthenticatedKey) =>
  key.key.type === 'publishable' &&
  route.access.kind === 'embed' &&
  route.target.kind === 'service' &&
  route.target.service === 'concierge';

/** The access log's caller: the key, its owner, and the restaurant it owns or the route names. */
function callerAt(key: AuthenticatedKey, match: RouteMatch): Readonly<Caller> | undefined {
  const caller = callerOf(key.principal);
  const onRestaurant = match.kind === 'found' && match.route.pattern.includes('/restaurants/:id');
  return onRestaurant ? { ...caller, restaurantId: match.params.id } : caller;
}

/** One request at the edge: what every step reads of it, and what its observers read once it is answered. */
class EdgeRequest implements AnswerFacts, RequestFacts {
  readonly requestId = newRequestId();
  /** The environment the bearer token's prefix claims. */
  readonly claimed: TEnvironment;
  /** The key behind the request, once authenticated (the access log). */
  key?: AuthenticatedKey;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly match: RouteMatch,
    /** The Authorization header's bearer token, parsed once. */
    readonly token: string | null,
    private readonly logger: Logger,
  ) {
    this.claimed = claimedEnvironment(token);
  }

  /** The request's logger, made only when something is logged. */
  log(): Logger {
    return this.logger.child({ requestId: this.requestId });
  }

  route(): string {
    return this.match.kind === 'found' ? this.match.route.pattern : UNMATCHED_ROUTE;
  }

  caller(): Readonly<Caller> | undefined {
    return this.key && callerAt(this.key, this.match);
  }
}

/**
 * The public edge for everything under /v1/partner/ and the public routes: who is calling, within
 * which limits, on which route, with which rights; then the answer (`/me`) or the owning service, with
 * an internal token. Authentication comes before routing, as with Stripe: without a valid key, nothing
 * is revealed.
 *
 * It runs on node:http's request and response, ahead of the express app that serves the rest (health,
 * docs, embed scripts, 404): this is the path every API call takes, and express's layers cost as much
 * as everything the edge itself does (docs/decisions.md). It answers as the app does: a request id,
 * the environment header, the request deadline, and every failure in the envelope (`answerError`).
 * Returns false for a request it does not serve.
 */
export function partnerEdge(deps: EdgeDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const router = createRouter(ROUTES);

  const dispatch = async (
    edge: EdgeRequest,
    route: Route,
    principal: Principal,
    key: AuthenticatedKey | null,
    extra?: Record<string, string>,
  ) => {
    const { req, res } = edge;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > deps.maxBodyBytes) {
      throw new AppError('payload_too_large', `Request bodies are limited to ${deps.maxBodyBytes} bytes.`);
    }
    if (route.target.kind === 'local') return sendJson(res, 200, { data: presentKeyMetadata(key!, deps.docsUrl) });
    const service = route.target.service;
    continueIfAwaited(req, res);
    await deps.proxy.forward(service, req, res, {
      [INTERNAL_TOKEN_HEADER]: deps.tokens.tokenFor(principal, service),
      'x-request-id': edge.requestId,
      ...extra,
    });
  };

  const chargeClient = (req: IncomingMessage) => () =>
    checkClientLimit(deps.rateLimiter, deps.clientLimitPerMin, visitorOf(clientAddress(req, deps.trustProxyHops)));

  const serveKeyed = async (edge: EdgeRequest, embed: boolean): Promise<void> => {
    const { req, res, method, path, match } = edge;
    const key = await authenticate(req, edge.token, deps.keyCache, deps.now, chargeClient(req));
    edge.key = key;
    deps.keyUse.used(key.key.id, deps.now().getTime());
    if (key.environment !== edge.claimed) res.setHeader('X-Service-Environment', key.environment);

    const decision = await deps.rateLimiter.check(key.key.id, limitsFor(key.key).perMinute);
    showLimit(res, decision);
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
    if (match.kind === 'none') throw new AppError('not_found', `No route for ${method} ${path}.`);
    if (match.kind === 'method-not-allowed') {
      throw new AppError('method_not_allowed', `${method} is not allowed on ${path}.`, { headers: { Allow: match.allow.join(', ') } });
    }
    authorize(match.route.access, key, req);
    let visitor: Record<string, string> | undefined;
    if (embed && isVisitorFacing(match.route, key)) {
      const id = visitorOf(clientAddress(req, deps.trustProxyHops));
      await checkEmbedLimits(deps.rateLimiter, deps.embedLimits, { restaurantId: match.params.id!, keyOwnerId: key.owner.id }, id);
      visitor = { [VISITOR_HEADER]: id };
    }
    await dispatch(edge, match.route, key.principal, key, visitor);
  };

  const serve = async (edge: EdgeRequest, embed: boolean): Promise<void> => {
    const { match } = edge;
    if (embed) {
      applyEmbedCors(edge.req, edge.res);
      if (edge.method === 'OPTIONS') return answerPreflight(edge.res);
    }
    if (match.kind === 'found' && match.route.access.kind === 'public') {
      // No key: the answer tells where the client's address stands in its limit.
      showLimit(edge.res, await chargeClient(edge.req)());
      return dispatch(edge, match.route, { kind: 'public' }, null);
    }
    return serveKeyed(edge, embed);
  };

  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const method = req.method ?? '';
    const keyed = path.startsWith('/v1/partner/');
    if (!keyed && !path.startsWith('/v1/') && !path.startsWith('/menu/')) return false;
    const atPath = router.atPath(path);
    const match = router.match(atPath, method);
    // Outside /v1/partner/, only the public routes are the edge's; the app answers the rest.
    if (!keyed && !(match.kind === 'found' && match.route.access.kind === 'public')) return false;

    const edge = new EdgeRequest(req, res, method, path, match, bearerToken(req), deps.logger);
    observeAnswer(deps, res, method, edge);
    res.setHeader('X-Request-Id', edge.requestId);
    // Every answer says which environment it belongs to; a refused key's prefix still tells.
    res.setHeader('X-Service-Environment', edge.claimed);
    watchDeadline(req, res, edge, { ms: deps.requestDeadlineMs, faults: deps.faults });
    serve(edge, atPath.embed).catch((err: unknown) => {
      deps.gatewayMetrics?.noteFailure(err);
      answerError(err, edge, res, deps.faults);
    });
    return true;
  };
}
