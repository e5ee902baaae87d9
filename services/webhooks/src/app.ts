import type { Express } from 'express';
import { createInternalServiceApp, type ServiceDeps } from '@partner/platform';

export interface WebhooksDeps extends ServiceDeps {
  internalPublicKey: string;
}

export function createApp(deps: WebhooksDeps): Express {
  return createInternalServiceApp({
    service: 'webhooks',
    logger: deps.logger,
    db: deps.db,
    internalPublicKey: deps.internalPublicKey,
    register: () => {},
  });
}
