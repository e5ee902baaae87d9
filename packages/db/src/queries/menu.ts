import { sql, type RawBuilder } from 'kysely';
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
 * A model's next `model_updated_at`: the database clock, and always after the previous stamp, so every
 * upload attempt of an item gets a stamp of its own even within one millisecond.
 */
const nextModelStamp = (): RawBuilder<Date> =>
  sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), coalesce(model_updated_at + interval '1 millisecond', '-infinity'))`;

/** A model upload begins: the item goes `processing`; its new `model_updated_at` identifies the attempt. */
export async function startModelUpload(tx: Executor, id: string): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ model_status: 'processing', model_failure_reason: null, model_updated_at: nextModelStamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The outcome (ready or failed) of the model upload that `startModelUpload` stamped `attempt`; written
 * only while that upload is still the latest one, so a slow upload never overwrites a newer one's state.
 */
export async function settleModelUpload(
  tx: Executor,
  id: string,
  attempt: Date,
  changes: Omit<ItemUpdate, 'updated_at' | 'model_status' | 'model_updated_at'> & { model_status: 'ready' | 'failed' },
): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ ...changes, model_updated_at: nextModelStamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('model_status', '=', 'processing')
    .where('model_updated_at', '=', attempt)
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
