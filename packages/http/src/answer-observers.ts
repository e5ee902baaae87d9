import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Principal } from '@partner/auth';
import { namesAnswers, nameTracedAnswer } from '@partner/tracing';
import type { AccessLog, Caller } from './access-log.js';
import { answeredErrorCode } from './http.js';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './metrics.js';

/** What watches every answer: the metrics (when METRICS_PORT is set) and the access log. */
export interface AnswerObservers {
  metrics?: ServiceMetrics;
  accessLog?: AccessLog;
}

/** What an answer's observers read of its request once it is done. */
export interface AnswerFacts {
  route: string;
  requestId: string;
  /** Asked only for an answer the access log writes (sampling comes first). */
  caller?: () => Readonly<Caller> | undefined;
}

/**
 * From now until the connection is done with the answer (sent whole, or cut by its client): counted
 * and timed under its route template, written to the access log, and its span (when traced) named by
 * the template. `factsOf` is read at the end, when the route and the caller are known.
 */
export function observeAnswer(observers: AnswerObservers, res: ServerResponse, method: string, factsOf: () => AnswerFacts): void {
  if (namesAnswers())
    nameTracedAnswer(res, () => {
      const { route } = factsOf();
      return route === UNMATCHED_ROUTE ? null : route;
    });
  const { metrics, accessLog } = observers;
  // Nothing to do for an answer no metric counts and no line tells (LOG_LEVEL=warn, no METRICS_PORT).
  if (!metrics && !accessLog?.writes) return;
  const started = performance.now();
  // `on`, not `once`: a response closes once, and `once` would wrap the listener for each request.
  res.on('close', () => {
    const facts = factsOf();
    const ms = performance.now() - started;
    metrics?.observeRequest(facts.route, method, res.statusCode, ms / 1000, answeredErrorCode(res));
    if (!accessLog?.takes(res.statusCode)) return;
    accessLog.write(
      { requestId: facts.requestId, method, route: facts.route, status: res.statusCode, durationMs: Math.round(ms * 10) / 10 },
      facts.caller?.(),
    );
  });
}

/** Callers by principal: a key's principal is one object for as long as the key (or its token) is cached. */
const callers = new WeakMap<Principal, Readonly<Caller>>();

/** The caller of a request that reached a service through the gateway; made once per principal. */
export function callerOf(principal: Principal | undefined): Readonly<Caller> | undefined {
  if (principal?.kind !== 'key') return undefined;
  let caller = callers.get(principal);
  if (!caller) {
    const { owner } = principal;
    caller = {
      keyId: principal.keyId,
      owner: `${owner.kind}:${owner.id}`,
      ...(owner.kind === 'restaurant' ? { restaurantId: owner.id } : {}),
    };
    callers.set(principal, caller);
  }
  return caller;
}

/** The template of the express route that answered `req` (`/v1/partner/items/:id`), or null before one has. */
export function routeTemplate(req: Request): string | null {
  const route = req.route as { path: unknown } | undefined;
  return route ? `${req.baseUrl}${String(route.path)}` : null;
}

/** Express: every request observed, under the template of the route that answered, or `unmatched`. */
export function observeRequests(observers: AnswerObservers): RequestHandler {
  // Nothing observes (no metrics, no access lines, no tracing; tracing starts before any app is built):
  // no closures per request.
  if (!observers.metrics && !observers.accessLog?.writes && !namesAnswers()) return (_req, _res, next) => next();
  return function observedRequest(req, res, next) {
    observeAnswer(observers, res, req.method, () => ({
      route: routeTemplate(req) ?? UNMATCHED_ROUTE,
      requestId: req.requestId,
      // Set by the internal-token guard; absent on a request it refused.
      caller: () => callerOf((req as { principal?: Principal }).principal),
    }));
    next();
  };
}
