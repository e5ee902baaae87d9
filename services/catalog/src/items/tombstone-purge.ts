import { purgeTombstones } from '@partner/db';
import type { ServiceDeps } from '@partner/platform';

/** How long deletions stay visible to incremental sync; a client further behind must resync in full. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 3600 * 1000;
const EVERY_MS = 3600 * 1000;

/** Hourly, forget tombstones past the retention (every replica may run it: the delete is idempotent). */
export function startTombstonePurge(deps: Pick<ServiceDeps, 'db' | 'logger' | 'now'>): { stop(): void } {
  const run = () =>
    purgeTombstones(deps.db, new Date(deps.now().getTime() - TOMBSTONE_RETENTION_MS)).catch((err: unknown) =>
      deps.logger.error({ err }, 'tombstone purge failed'),
    );
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
