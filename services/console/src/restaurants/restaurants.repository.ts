import { sql } from 'kysely';
import type { Executor, NewRestaurant, RestaurantRow, RestaurantUpdate } from '@partner/db';

export async function insertRestaurant(db: Executor, row: NewRestaurant): Promise<RestaurantRow> {
  return db.insertInto('restaurants').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRestaurant(db: Executor, id: string, changes: RestaurantUpdate): Promise<RestaurantRow | undefined> {
  return db
    .updateTable('restaurants')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The restaurants given, or every one when null, by name. */
export async function listRestaurantRows(db: Executor, ids: string[] | null): Promise<RestaurantRow[]> {
  if (ids?.length === 0) return [];
  let query = db.selectFrom('restaurants').selectAll().orderBy('name').orderBy('id');
  if (ids) query = query.where('id', 'in', ids);
  return query.execute();
}
