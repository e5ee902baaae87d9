import type { Express } from 'express';
import { createInternalServiceApp } from '@partner/http';
import { registerDeliveryRoutes } from './deliveries/deliveries.routes.js';
import type { WebhooksDeps } from './deps.js';
import { registerEndpointRoutes } from './endpoints/endpoints.routes.js';
import { registerOperatorRoutes } from './deliveries/operator.routes.js';

export type { WebhooksDeps } from './deps.js';

export function createApp(deps: WebhooksDeps): Express {
  return createInternalServiceApp({
    service: 'webhooks',
    logger: deps.logger,
    db: deps.db,
    internalPublicKey: deps.internalPublicKey,
    maxBodyBytes: deps.maxBodyBytes,
    requestDeadlineMs: deps.requestDeadlineMs,
    observers: deps,
    sealing: deps.sealing,
    register: (router) => {
      registerEndpointRoutes(router, deps);
      registerDeliveryRoutes(router, deps);
      registerOperatorRoutes(router, deps);
    },
  });
}
