import express, { type Express } from 'express';
import { errorHandler, type FaultLog, type Logger, notFoundHandler, requestContext, requestDeadline } from '@partner/http';
import { claimedEnvironment } from './auth/authenticate.js';
import { partnerEdge, type EdgeDeps } from './edge.js';
import { embedScripts } from './embed-scripts.js';
import { apiReference } from './openapi/reference.js';

export interface GatewayDeps extends EdgeDeps {
  logger: Logger;
  /** Faults logged once per burst: the deadline's, the error handler's and the background's together. */
  faults: FaultLog;
  /**
   * Every request is answered by then, 503 with Retry-After at the latest: the gateway's own lookups
   * and the service behind it share one budget (each has a shorter timeout of its own).
   */
  requestDeadlineMs: number;
  /** The built embed scripts served at /embed/*.js. */
  embedDir: string;
  /** The gateway's public URL: the server the OpenAPI document at /v1/openapi.json names. */
  publicBaseUrl: string;
}

export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxyHops);
  app.use(requestContext(deps.logger, { trustIncomingId: false }));
  app.use(requestDeadline({ ms: deps.requestDeadlineMs, faults: deps.faults }));
  app.use((req, res, next) => {
    // Every answer says which environment it belongs to; a refused key's prefix still tells.
    res.setHeader('X-Service-Environment', claimedEnvironment(req));
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(apiReference(deps.publicBaseUrl));
  app.use(partnerEdge(deps));
  app.use('/embed', embedScripts(deps.embedDir));
  app.use(notFoundHandler());
  app.use(errorHandler({ faults: deps.faults }));
  return app;
}
