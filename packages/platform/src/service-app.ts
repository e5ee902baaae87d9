import express, { type Express, type Router } from 'express';
import { requireInternalToken } from '@partner/auth';
import { errorHandler, jsonBody, notFoundHandler, requestContext, type Logger } from '@partner/kit';

export interface ServiceAppOptions {
  /** The internal JWT audience: the service's own name. */
  service: string;
  logger: Logger;
  internalPublicKey: string;
  /** Mounts the service's routes; every one of them is behind the internal token. */
  register: (router: Router) => void;
  jsonLimit?: string;
}

/**
 * The frame of every service behind the gateway: request ids from the gateway, a health check that
 * needs nothing, then the internal token on everything else, JSON bodies, routes, and one error envelope.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(options.logger, { trustIncomingId: true }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.use(requireInternalToken({ publicKey: options.internalPublicKey, audience: options.service }));
  app.use(jsonBody({ limit: options.jsonLimit ?? '1mb' }));
  const router = express.Router();
  options.register(router);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}
