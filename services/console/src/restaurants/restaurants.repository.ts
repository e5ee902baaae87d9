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
