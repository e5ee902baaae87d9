import { sql } from 'kysely';
import type { Executor, NewRestaurant, RestaurantRow, RestaurantUpdate } from '@partner/db';

export async function insertRestaurant(db: Executor, row: NewRestaurant): Promise<RestaurantRow> {
  return db.insertInto('restaurants').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The restaurant's fields that partners see: its resource shows them, and so its menu (spec 2.3). */
const PARTNER_SHOWN = ['name', 'slug', 'currency', 'public_menu_url'] as const;

/**
 * Applies `changes`, and tells whether a field partners see changed. Only such a change moves the
 * restaurant's `updated_at` (its resource's and its menu's `updatedAt`, and the menu's ETag): a new
 * quota or house notes leave every integrator's copy of the menu as it was.
 */
export async function updateRestaurant(
  tx: Executor,
  id: string,
  changes: RestaurantUpdate,
): Promise<{ row: RestaurantRow; partnerShownChanged: boolean } | undefined> {
  const before = await tx.selectFrom('restaurants').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!before) return undefined;
  // Nothing given (`{}`, `{ concierge: {} }`): nothing to write, and no SET clause to write it with.
  if (Object.values(changes).every((value) => value === undefined)) return { row: before, partnerShownChanged: false };
  const partnerShownChanged = PARTNER_SHOWN.some((field) => changes[field] !== undefined && changes[field] !== before[field]);
  const row = await tx
    .updateTable('restaurants')
    .set({ ...changes, ...(partnerShownChanged ? { updated_at: sql<Date>`now()` } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, partnerShownChanged };
}

/** The restaurants given, or every one when null, by name. */
export async function listRestaurantRows(db: Executor, ids: string[] | null): Promise<RestaurantRow[]> {
  if (ids?.length === 0) return [];
  let query = db.selectFrom('restaurants').selectAll().orderBy('name').orderBy('id');
  if (ids) query = query.where('id', 'in', ids);
  return query.execute();
}
