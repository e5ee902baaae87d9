import { purgeIdempotencyRecords, purgeTombstones } from '@partner/db';
import type { ServiceDeps } from '@partner/platform';

/** How long deletions stay visible to incremental sync; a client further behind must resync in full. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 3600 * 1000;
const EVERY_MS = 3600 * 1000;

/**
 * Hourly: forget tombstones past the retention and idempotency records past their 24 hours (for every
 * service: they share the table). Every replica may run it; the deletes are idempotent.
 */
export function startHousekeeping(deps: Pick<ServiceDeps, 'db' | 'logger' | 'now'>): { stop(): void } {
  const run = () =>
    Promise.all([
      purgeTombstones(deps.db, new Date(deps.now().getTime() - TOMBSTONE_RETENTION_MS)),
      purgeIdempotencyRecords(deps.db),
    ]).catch((err: unknown) => deps.logger.error({ err }, 'housekeeping failed'));
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
