import { TOMBSTONE_RETENTION_MS } from '@partner/db';
import type { ConsoleDeps } from '../deps.js';
import { purgeTombstones } from './housekeeping.repository.js';

const EVERY_MS = 3600 * 1000;

/**
 * Hourly: forget item tombstones past the sync retention. Console owns the items table, so it alone
 * deletes from it; every replica may run this, the delete is idempotent.
 */
export function startHousekeeping(deps: Pick<ConsoleDeps, 'db' | 'logger' | 'now'>): { stop(): void } {
  const run = () =>
    purgeTombstones(deps.db, new Date(deps.now().getTime() - TOMBSTONE_RETENTION_MS)).catch((err: unknown) =>
      deps.logger.error({ err }, 'housekeeping failed'),
    );
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
