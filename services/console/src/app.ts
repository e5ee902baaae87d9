import type { Express } from 'express';
import { createServiceApp } from '@partner/http';
import { requireAdminToken } from './admin-auth.js';
import { recordChanges, registerAuditRoutes } from './audit/audit-trail.js';
import type { ConsoleDeps } from './deps.js';
import { registerIntegratorRoutes } from './integrators/integrators.routes.js';
import { registerKeyRoutes } from './keys/keys.routes.js';
import { registerMenuRoutes } from './menu/menu.routes.js';
import { registerModelRoutes } from './models/models.routes.js';
import { registerPlatformSettingsRoutes } from './platform-settings/platform-settings.routes.js';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.js';

/** The dashboard's backend (DESIGN.md section 7): admin token, JSON, the Partner API's envelopes. */
export function createApp(deps: ConsoleDeps): Express {
  return createServiceApp({
    service: 'console',
    logger: deps.logger,
    maxBodyBytes: deps.maxBodyBytes,
    requestDeadlineMs: deps.requestDeadlineMs,
    observers: deps,
    guard: requireAdminToken(deps.adminToken),
    trustIncomingRequestId: false,
    beforeRoutes: [recordChanges(deps)],
    register: (router) => {
      registerAuditRoutes(router, deps);
      registerRestaurantRoutes(router, deps);
      registerMenuRoutes(router, deps);
      registerModelRoutes(router, deps);
      registerIntegratorRoutes(router, deps);
      registerKeyRoutes(router, deps);
      registerPlatformSettingsRoutes(router, deps);
      registerWebhookRoutes(router, deps);
    },
  });
}
