import express, { type Express, type RequestHandler, type Router } from 'express';
import { FaultLog } from './dependency-faults.js';
import { DEFAULT_REQUEST_DEADLINE_MS, errorHandler, jsonBody, notFoundHandler, requestContext, requestDeadline } from './http.js';
import { requireInternalToken } from './internal-auth.js';
import type { Logger } from './logger.js';
import { type AnswerObservers, observeRequests } from './answer-observers.js';
import type { Db } from '@partner/db';
import { idempotency } from './idempotency.js';
import type { SealingKeys } from '@partner/signing';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  /** Who may call: the gateway's internal token (services) or the admin token (console). */
  guard: RequestHandler;
  /** Behind the gateway the request id is the gateway's; a service facing callers makes its own. */
  trustIncomingRequestId: boolean;
  /** Runs after the guard and body parsing, before the routes (e.g. idempotency). */
  beforeRoutes?: RequestHandler[];
  /** Mounts the service's routes; every one of them is behind the guard. */
  register: (router: Router) => void;
  /** `MAX_BODY_BYTES`, the gateway's limit too: a larger body is `413 payload_too_large`. */
  maxBodyBytes: number;
  /** `REQUEST_DEADLINE_MS`: a request unanswered by then is `503 service_unavailable` (8 s unless set). */
  requestDeadlineMs?: number;
  /** Watch every answer: metrics by route, the access log. */
  observers?: AnswerObservers;
}

/**
 * The frame of every service: request ids, a health check that needs nothing, a deadline on everything
 * else, the guard, JSON bodies, the routes, and one error envelope (dependency faults as 503).
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.observers) app.use(observeRequests(options.observers));
  app.use(requestContext(options.logger, { trustIncomingId: options.trustIncomingRequestId }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  // One log of faults per app: the deadline's and the error handler's bursts are counted together.
  const faults = new FaultLog(options.logger);
  app.use(requestDeadline({ ms: options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS, faults }));
  app.use(options.guard);
  app.use(jsonBody({ limit: options.maxBodyBytes }));
  for (const handler of options.beforeRoutes ?? []) app.use(handler);
  const router = express.Router();
  options.register(router);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler({ faults }));
  return app;
}

/**
 * A service behind the gateway: only requests carrying the gateway's internal token for it get in,
 * and every mutating route honours Idempotency-Key.
 */
export function createInternalServiceApp(options: {
  service: string;
  logger: Logger;
  db: Db;
  internalPublicKey: string;
  maxBodyBytes: number;
  /** Seals the answers stored for Idempotency-Key retries (answers that carry secrets). */
  sealing?: SealingKeys;
  register: (router: Router) => void;
  requestDeadlineMs?: number;
  observers?: AnswerObservers;
}): Express {
  return createServiceApp({
    service: options.service,
    logger: options.logger,
    guard: requireInternalToken({ publicKey: options.internalPublicKey, audience: options.service }),
    trustIncomingRequestId: true,
    beforeRoutes: [idempotency(options.db, { sealing: options.sealing })],
    register: options.register,
    maxBodyBytes: options.maxBodyBytes,
    requestDeadlineMs: options.requestDeadlineMs,
    observers: options.observers,
  });
}
