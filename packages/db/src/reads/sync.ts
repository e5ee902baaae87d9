import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../pool.js';
import type { Executor } from './executor.js';

// Gapless incremental sync (DESIGN.md section 4). Every item write of a restaurant runs inside a
// transaction holding that restaurant's sync lock in shared mode, and stamps `updated_at` from the
// database clock (truncated to the millisecond the API carries) while holding it. Closing a sync window
// takes the same lock exclusively: it waits for the writes in flight to commit, reads the clock, and
// lets go. A write that commits later took its lock later, so its timestamp is later than the window's
// end, and it lands in the next window, never in a past one.

/** How long deletions stay visible to incremental sync; a client further behind must resync in full. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * When tombstones are purged: a day past the retention promised. Console purges by its clock and the
 * catalog promises by its own; the day covers any skew between hosts, so a tombstone is never gone
 * while the catalog still answers `fullResyncRequired: false` for a window that holds it.
 */
export const TOMBSTONE_PURGE_AFTER_MS = TOMBSTONE_RETENTION_MS + 24 * 3600 * 1000;

const SYNC_LOCK_CLASS = 0x5359; // "SY": the two-key advisory lock space of item sync locks

/** The timestamp an item write stamps, read from the database clock while the sync lock is held. */
export const writeTimestamp = (): RawBuilder<Date> => sql<Date>`date_trunc('milliseconds', clock_timestamp())`;

/** For item writers: hold the restaurant's sync lock (shared) until the transaction ends. */
export async function lockForItemWrite(tx: Executor, restaurantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${SYNC_LOCK_CLASS}, hashtext(${restaurantId}))`.execute(tx);
}

/**
 * For readers: the end of a new sync window. Every write stamped at or before it has committed. The
 * millisecond subtracted keeps a write that starts in the same millisecond out of this window.
 */
export async function closeSyncWindow(db: Db, restaurantId: string): Promise<Date> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SYNC_LOCK_CLASS}, hashtext(${restaurantId}))`.execute(tx);
    const { rows } = await sql<{
      end: Date;
    }>`select date_trunc('milliseconds', clock_timestamp()) - interval '1 millisecond' as end`.execute(tx);
    return rows[0]!.end;
  });
}
