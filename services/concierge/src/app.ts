import type { Express } from 'express';
import { createServiceApp, type ServiceDeps } from '@partner/platform';

export interface ConciergeDeps extends ServiceDeps {
  internalPublicKey: string;
}

export function createApp(deps: ConciergeDeps): Express {
  return createServiceApp({
    service: 'concierge',
    logger: deps.logger,
    internalPublicKey: deps.internalPublicKey,
    register: () => {},
  });
}
