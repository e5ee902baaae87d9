import type { Express } from 'express';
import { createServiceApp, type ServiceDeps } from '@partner/platform';

export interface WebhooksDeps extends ServiceDeps {
  internalPublicKey: string;
}

export function createApp(deps: WebhooksDeps): Express {
  return createServiceApp({
    service: 'webhooks',
    logger: deps.logger,
    internalPublicKey: deps.internalPublicKey,
    register: () => {},
  });
}
