import { type Executor, type ItemRow, type ItemUpdate, type NewItem, type SectionRow, writeTimestamp } from '@partner/db';

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

export async function insertItem(tx: Executor, row: Omit<NewItem, 'created_at' | 'updated_at'>): Promise<ItemRow> {
  return tx
    .insertInto('items')
    .values({ ...row, created_at: writeTimestamp(), updated_at: writeTimestamp() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A page of a restaurant's live items, every status, in id order after `after`. */
export async function listLiveItems(db: Executor, restaurantId: string, page: { after?: string; limit: number }): Promise<ItemRow[]> {
  let query = db
    .selectFrom('items')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .limit(page.limit);
  if (page.after) query = query.where('id', '>', page.after);
  return query.execute();
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

export async function markItemDeleted(tx: Executor, id: string): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ deleted_at: writeTimestamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
