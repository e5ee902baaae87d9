import { CATALOG_OPERATIONS } from './catalog.js';
import { CONCIERGE_OPERATIONS } from './concierge.js';
import type { Operation, RouteKey } from './operation.js';
import { WEBHOOK_OPERATIONS } from './webhooks.js';

export { routeKey, type Operation, type RouteKey, type Success, type Tag } from './operation.js';

export const OPERATIONS: Record<RouteKey, Operation> = { ...CATALOG_OPERATIONS, ...WEBHOOK_OPERATIONS, ...CONCIERGE_OPERATIONS };
