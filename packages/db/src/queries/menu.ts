import type { ItemRow, ItemUpdate, NewItem, SectionRow } from '../schema.js';
import type { Executor } from './executor.js';
import { writeTimestamp } from './sync.js';

// Item writes stamp their time from the database clock: call them inside a transaction that holds
// the restaurant's sync lock (lockForItemWrite), or incremental sync could miss them.

export async function insertSection(
  db: Executor,
  row: { id: string; restaurant_id: string; name: string; position?: number },
): Promise<SectionRow> {
  return db.insertInto('sections').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSectionById(db: Executor, id: string): Promise<SectionRow | undefined> {
  return db.selectFrom('sections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSections(db: Executor, restaurantId: string): Promise<SectionRow[]> {
  return db.selectFrom('sections').selectAll().where('restaurant_id', '=', restaurantId).orderBy('position').orderBy('id').execute();
}

export async function insertItem(tx: Executor, row: Omit<NewItem, 'created_at' | 'updated_at'>): Promise<ItemRow> {
  return tx
    .insertInto('items')
    .values({ ...row, created_at: writeTimestamp(), updated_at: writeTimestamp() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Live items only: a deleted item is a tombstone, visible to sync listings and nothing else. */
export async function findLiveItemById(db: Executor, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function updateLiveItem(tx: Executor, id: string, changes: Omit<ItemUpdate, 'updated_at'>): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ ...changes, updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The outcome (ready or failed) of the model upload that set `processing` at `attemptStartedAt`; written
 * only while that upload is still the latest one, so a slow upload never overwrites a newer one's state.
 */
export async function settleModelUpload(
  tx: Executor,
  id: string,
  attemptStartedAt: Date,
  changes: Omit<ItemUpdate, 'updated_at' | 'model_status' | 'model_updated_at'> & { model_status: 'ready' | 'failed' },
): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ ...changes, model_updated_at: new Date(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('model_status', '=', 'processing')
    .where('model_updated_at', '=', attemptStartedAt)
    .returningAll()
    .executeTakeFirst();
}

export async function markItemDeleted(tx: Executor, id: string): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ deleted_at: writeTimestamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
