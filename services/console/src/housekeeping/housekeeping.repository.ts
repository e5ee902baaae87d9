import type { Executor } from '@partner/db';

/** Tombstones older than the retention are forgotten; a client behind them must resync in full. */
export async function purgeTombstones(db: Executor, olderThan: Date): Promise<number> {
  const result = await db.deleteFrom('items').where('deleted_at', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}
