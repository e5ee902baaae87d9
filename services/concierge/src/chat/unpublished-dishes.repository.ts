import type { Db } from '@partner/db';

/** More unpublished names than this are not looked for: the guard's pattern stays small. */
const MOST_NAMES = 500;

/**
 * Names of a restaurant's dishes that diners must not hear of (drafts, archived), for the reply guard;
 * the most recently changed first.
 */
export async function listUnpublishedDishNames(db: Db, restaurantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('items')
    .select('name')
    .where('restaurant_id', '=', restaurantId)
    .where('status', '!=', 'published')
    .where('deleted_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .limit(MOST_NAMES)
    .execute();
  return rows.map((row) => row.name);
}
