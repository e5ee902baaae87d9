import express, { type Express } from 'express';
import { errorHandler, jsonBody, notFoundHandler, requestContext } from '@partner/kit';
import { requireAdminToken } from './admin-auth.js';
import type { ConsoleDeps } from './deps.js';
import { registerIntegratorRoutes } from './integrators/integrators.routes.js';
import { registerKeyRoutes } from './keys/keys.routes.js';
import { registerMenuRoutes } from './menu/menu.routes.js';
import { registerPlatformSettingsRoutes } from './platform-settings/platform-settings.routes.js';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';

/** The dashboard's backend (DESIGN.md section 7): admin token, JSON, the Partner API's envelopes. */
export function createApp(deps: ConsoleDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(deps.logger, { trustIncomingId: false }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'console' });
  });
  app.use(requireAdminToken(deps.adminToken));
  app.use(jsonBody({ limit: '1mb' }));
  const router = express.Router();
  registerRestaurantRoutes(router, deps);
  registerMenuRoutes(router, deps);
  registerIntegratorRoutes(router, deps);
  registerKeyRoutes(router, deps);
  registerPlatformSettingsRoutes(router, deps);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}
