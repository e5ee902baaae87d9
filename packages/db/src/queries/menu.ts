import type { ItemRow, ItemUpdate, NewItem, SectionRow } from '../schema.js';
import type { Executor } from './executor.js';

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

export async function insertItem(db: Executor, row: NewItem): Promise<ItemRow> {
  return db.insertInto('items').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Live items only: a deleted item is a tombstone, visible to sync listings and nothing else. */
export async function findLiveItemById(db: Executor, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function updateLiveItem(db: Executor, id: string, changes: ItemUpdate, now: Date): Promise<ItemRow | undefined> {
  return db
    .updateTable('items')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function markItemDeleted(db: Executor, id: string, now: Date): Promise<ItemRow | undefined> {
  return updateLiveItem(db, id, { deleted_at: now }, now);
}
