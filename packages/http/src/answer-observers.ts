import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Principal } from '@partner/auth';
import { namesAnswers, nameTracedAnswer } from '@partner/tracing';
import type { AccessLog, Caller } from './access-log.js';
import { whenAnswerClosed } from './answer-closed.js';
import { answeredErrorCode } from './http.js';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './metrics.js';

/** What watches every answer: the metrics (when METRICS_PORT is set) and the access log. */
export interface AnswerObservers {
  metrics?: ServiceMetrics;
  accessLog?: AccessLog;
}

/**
 * What an answer's observers read of its request once it is done, when the route and the caller are
 * known. An object of the request's own (the gateway's edge request) rather than closures: three
 * allocations a request fewer on the path every API call takes.
 */
export interface AnswerFacts {
  readonly requestId: string;
  /** The template of the route that answered, or UNMATCHED_ROUTE. */
  route(): string;
  /** Asked only for an answer the access log writes (sampling comes first). */
  caller(): Readonly<Caller> | undefined;
}

/**
 * From now until the connection is done with the answer (sent whole, or cut by its client): counted
 * and timed under its route template, written to the access log, and its span (when traced) named by
 * the template.
 */
export function observeAnswer(observers: AnswerObservers, res: ServerResponse, method: string, facts: AnswerFacts): void {
  if (namesAnswers())
    nameTracedAnswer(res, () => {
      const route = facts.route();
      return route === UNMATCHED_ROUTE ? null : route;
    });
  const { metrics, accessLog } = observers;
  // Nothing to do for an answer no metric counts and no line tells (LOG_LEVEL=warn, no METRICS_PORT).
  if (!metrics && !accessLog?.writes) return;
  const started = performance.now();
  whenAnswerClosed(res, () => {
    const route = facts.route();
    const ms = performance.now() - started;
    const status = res.statusCode;
    metrics?.observeRequest(route, method, status, ms / 1000, status >= 400 ? answeredErrorCode(res) : undefined);
    if (!accessLog?.takes(status)) return;
    accessLog.write({ requestId: facts.requestId, method, route, status, durationMs: ms }, facts.caller());
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

/** An express request's facts: the caller is the principal the internal-token guard set (absent on a request it refused). */
class ExpressAnswerFacts implements AnswerFacts {
  constructor(private readonly req: Request) {}

  /** Set by requestContext, which runs after the observers begin. */
  get requestId(): string {
    return this.req.requestId;
  }

  route(): string {
    return routeTemplate(this.req) ?? UNMATCHED_ROUTE;
  }

  caller(): Readonly<Caller> | undefined {
    return callerOf((this.req as { principal?: Principal }).principal);
  }
}

/** Express: every request observed, under the template of the route that answered, or `unmatched`. */
export function observeRequests(observers: AnswerObservers): RequestHandler {
  // Nothing observes (no metrics, no access lines, no tracing; tracing starts before any app is built):
  // no closures per request.
  if (!observers.metrics && !observers.accessLog?.writes && !namesAnswers()) return (_req, _res, next) => next();
  return function observedRequest(req, res, next) {
    observeAnswer(observers, res, req.method, new ExpressAnswerFacts(req));
    next();
  };
}
