// The one schema, its migrations and the pool; and the read functions through which services read
// tables that another service owns (docs/architecture.md). Writes live in the owning service.
export { migrateToLatest } from './migrate.js';
export { createDb, type Db, type DbDeadlines, type DbOptions, poolStats, type PoolStats } from './pool.js';
export type * from './schema.js';
export * from './errors.js';
export * from './reads/concierge.js';
export * from './reads/executor.js';
export * from './reads/items.js';
export * from './reads/keys.js';
export * from './reads/menu.js';
export * from './reads/menu-etag.js';
export * from './reads/restaurants.js';
export * from './reads/settings.js';
export * from './reads/sync.js';
export * from './reads/webhook-reach.js';
export * from './outbox.js';
