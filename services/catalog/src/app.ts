import type { Express } from 'express';
import { createInternalServiceApp, type ServiceDeps } from '@partner/platform';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';

export interface CatalogDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorSecret: string;
}

export function createApp(deps: CatalogDeps): Express {
  return createInternalServiceApp({
    service: 'catalog',
    logger: deps.logger,
    internalPublicKey: deps.internalPublicKey,
    register: (router) => {
      registerRestaurantRoutes(router, deps);
    },
  });
}
