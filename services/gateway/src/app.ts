import type { RequestListener } from 'node:http';
import express from 'express';
import { errorHandler, notFoundHandler, observeRequests, requestContext, requestDeadline } from '@partner/http';
import { bearerToken, claimedEnvironment } from './auth/authenticate.js';
import { partnerEdge, type EdgeDeps } from './edge.js';
import { embedScripts } from './embed-scripts.js';
import { guidePages } from './openapi/guides.js';
import { apiReference } from './openapi/reference.js';

export interface GatewayDeps extends EdgeDeps {
  /** The built embed scripts served at /embed/*.js. */
  embedDir: string;
  /** The gateway's public URL: the server the OpenAPI document at /v1/openapi.json names. */
  publicBaseUrl: string;
}

/**
 * The gateway's request listener: the partner edge (every API call) on node:http directly, and an
 * express app for what is left (health check, API reference, embed scripts, 404). Both answer with a
 * request id, the environment header, the request deadline (the gateway's own lookups and the service
 * behind it share one budget) and errors in the envelope.
 */
export function createApp(deps: GatewayDeps): RequestListener {
  const edge = partnerEdge(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(observeRequests(deps));
  app.use(requestContext(deps.logger, { trustIncomingId: false }));
  app.use(requestDeadline({ ms: deps.requestDeadlineMs, faults: deps.faults }));
  app.use((req, res, next) => {
    res.setHeader('X-Service-Environment', claimedEnvironment(bearerToken(req)));
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(apiReference(deps.publicBaseUrl));
  app.use(guidePages());
  app.use('/embed', embedScripts(deps.embedDir));
  app.use(notFoundHandler());
  app.use(errorHandler({ faults: deps.faults }));
  return (req, res) => {
    if (!edge(req, res)) app(req, res);
  };
}
