import type { Express } from 'express';
import { createInternalServiceApp } from '@partner/http';
import { registerAssetRoutes } from './assets/assets.routes.js';
import type { CatalogDeps } from './deps.js';
import { registerItemRoutes } from './items/items.routes.js';
import { registerMenuRoutes } from './menu/menu.routes.js';
import { registerMenuPageRoutes } from './menu-page/menu-page.routes.js';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';

export type { CatalogDeps } from './deps.js';

export function createApp(deps: CatalogDeps): Express {
  return createInternalServiceApp({
    service: 'catalog',
    logger: deps.logger,
    db: deps.db,
    internalPublicKey: deps.internalPublicKey,
    maxBodyBytes: deps.maxBodyBytes,
    requestDeadlineMs: deps.requestDeadlineMs,
    observers: deps,
    register: (router) => {
      registerRestaurantRoutes(router, deps);
      registerItemRoutes(router, deps);
      registerMenuRoutes(router, deps);
      registerAssetRoutes(router, deps);
      registerMenuPageRoutes(router, deps);
    },
  });
}
