import type { Express } from 'express';
import { createServiceApp, type ServiceDeps } from '@partner/platform';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';

export interface CatalogDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorSecret: string;
}

export function createApp(deps: CatalogDeps): Express {
  return createServiceApp({
    service: 'catalog',
    logger: deps.logger,
    internalPublicKey: deps.internalPublicKey,
    register: (router) => {
      registerRestaurantRoutes(router, deps);
    },
  });
}
