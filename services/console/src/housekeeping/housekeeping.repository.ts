import type { Executor } from '@partner/db';

/** Rows one purge statement deletes: each stays well inside the pool's statement timeout. */
const PURGE_BATCH = 5_000;

/** Tombstones older than the retention are forgotten; a client behind them must resync in full. */
export async function purgeTombstones(db: Executor, olderThan: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    const result = await db
      .deleteFrom('items')
      .where('id', 'in', (eb) => eb.selectFrom('items').select('id').where('deleted_at', '<', olderThan).limit(PURGE_BATCH))
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    purged += deleted;
    if (deleted < PURGE_BATCH) return purged;
  }
}
