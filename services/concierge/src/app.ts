import type { Express } from 'express';
import { createInternalServiceApp, type ServiceDeps } from '@partner/platform';

export interface ConciergeDeps extends ServiceDeps {
  internalPublicKey: string;
}

export function createApp(deps: ConciergeDeps): Express {
  return createInternalServiceApp({
    service: 'concierge',
    logger: deps.logger,
    db: deps.db,
    internalPublicKey: deps.internalPublicKey,
    register: () => {},
  });
}
