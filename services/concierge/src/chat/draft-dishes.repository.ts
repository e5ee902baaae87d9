import { sql } from 'kysely';
import type { Db } from '@partner/db';

/** More draft names than this are not looked for: the guard's pattern stays small. */
const MOST_NAMES = 500;

/**
 * Names of a restaurant's draft dishes, which diners must not hear of before they are published, for
 * the reply guard; the most recently changed first. (Archived dishes are no secret, and their names are
 * often those of today's dishes.)
 */
export async function listDraftDishNames(db: Db, restaurantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('items')
    .select('name')
    .where('restaurant_id', '=', restaurantId)
    // A literal, not a parameter: a generic plan (a prepared statement) must still see the drafts' index.
    .where('status', '=', sql.lit('draft'))
    .where('deleted_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .limit(MOST_NAMES)
    .execute();
  return rows.map((row) => row.name);
}
