import { TOMBSTONE_PURGE_AFTER_MS } from '@partner/db';
import type { ConsoleDeps } from '../deps.js';
import { purgeExpiredSignIns } from '../accounts/sessions.repository.js';
import { purgeTombstones } from './housekeeping.repository.js';

const EVERY_MS = 3600 * 1000;

/**
 * Hourly: forget item tombstones past the sync retention, and dashboard sessions and sign-in links past
 * their expiry. Console owns these tables, so it alone deletes from them; every replica may run this,
 * the deletes are idempotent.
 */
export function startHousekeeping(deps: Pick<ConsoleDeps, 'db' | 'logger' | 'now'>): { stop(): void } {
  const run = async () => {
    const now = deps.now();
    try {
      await purgeTombstones(deps.db, new Date(now.getTime() - TOMBSTONE_PURGE_AFTER_MS));
      await purgeExpiredSignIns(deps.db, now);
    } catch (err) {
      deps.logger.error({ err }, 'housekeeping failed');
    }
  };
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
