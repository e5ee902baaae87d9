import type { Express } from 'express';
import { createInternalServiceApp } from '@partner/http';
import { registerConciergeRoutes } from './chat/concierge.routes.js';
import type { ConciergeDeps } from './deps.js';

export type { ConciergeDeps } from './deps.js';

export function createApp(deps: ConciergeDeps): Express {
  return createInternalServiceApp({
    service: 'concierge',
    logger: deps.logger,
    db: deps.db,
    internalPublicKey: deps.internalPublicKey,
    maxBodyBytes: deps.maxBodyBytes,
    requestDeadlineMs: deps.requestDeadlineMs,
    observers: deps,
    register: (router) => registerConciergeRoutes(router, deps),
  });
}
