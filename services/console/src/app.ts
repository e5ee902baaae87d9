import type { Express } from 'express';
import { createServiceApp } from '@partner/http';
import { consoleGuard } from './accounts/console-guard.js';
import { registerMemberRoutes } from './accounts/members.routes.js';
import { registerSignInRoutes } from './accounts/sign-in.routes.js';
import { recordChanges, registerAuditRoutes } from './audit/audit-trail.js';
import type { ConsoleDeps } from './deps.js';
import { registerIntegratorRoutes } from './integrators/integrators.routes.js';
import { registerKeyRoutes } from './keys/keys.routes.js';
import { registerMenuRoutes } from './menu/menu.routes.js';
import { registerModelRoutes } from './models/models.routes.js';
import { registerPlatformSettingsRoutes } from './platform-settings/platform-settings.routes.js';
import { registerRestaurantRoutes } from './restaurants/restaurants.routes.js';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.js';

/**
 * The dashboard's backend (DESIGN.md section 7): JSON and the Partner API's envelopes, for operators
 * with the admin token and for people signed in to the dashboard, each limited to what they manage.
 */
export function createApp(deps: ConsoleDeps): Express {
  const app = createServiceApp({
    service: 'console',
    logger: deps.logger,
    maxBodyBytes: deps.maxBodyBytes,
    requestDeadlineMs: deps.requestDeadlineMs,
    observers: deps,
    guard: consoleGuard(deps),
    trustIncomingRequestId: false,
    beforeRoutes: [recordChanges(deps)],
    register: (router) => {
      registerSignInRoutes(router, deps);
      registerMemberRoutes(router, deps);
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
  // The dashboard's server (and an ingress before it) forward to console: that many hops of
  // X-Forwarded-For are believed, and no more, so a client cannot choose its own address.
  app.set('trust proxy', deps.trustProxyHops);
  return app;
}
