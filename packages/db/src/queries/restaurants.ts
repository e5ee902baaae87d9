import type { Db } from '../pool.js';
import type { NewRestaurant, RestaurantRow, RestaurantUpdate } from '../schema.js';
import type { Executor } from './executor.js';

export type Owner = { kind: 'restaurant'; id: string } | { kind: 'integrator'; id: string };

export async function insertRestaurant(db: Executor, row: NewRestaurant): Promise<RestaurantRow> {
  return db.insertInto('restaurants').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findRestaurantById(db: Executor, id: string): Promise<RestaurantRow | undefined> {
  return db.selectFrom('restaurants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateRestaurant(db: Executor, id: string, changes: RestaurantUpdate): Promise<RestaurantRow | undefined> {
  return db
    .updateTable('restaurants')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** A restaurant key reaches its own restaurant; an integrator key those with an active grant. */
function reachable(db: Executor, owner: Owner) {
  const base = db.selectFrom('restaurants').selectAll('restaurants');
  if (owner.kind === 'restaurant') return base.where('restaurants.id', '=', owner.id);
  return base.where((eb) =>
    eb.exists(
      eb
        .selectFrom('grants')
        .select('grants.id')
        .whereRef('grants.restaurant_id', '=', 'restaurants.id')
        .where('grants.integrator_org_id', '=', owner.id)
        .where('grants.status', '=', 'active'),
    ),
  );
}

/**
 * The restaurant if the owner reaches it, with the scopes of the integrator's grant (null for the
 * restaurant's own keys, which need no grant).
 */
export async function findRestaurantForOwner(
  db: Executor,
  owner: Owner,
  id: string,
): Promise<{ restaurant: RestaurantRow; grantScopes: string[] | null } | undefined> {
  if (owner.kind === 'restaurant') {
    if (owner.id !== id) return undefined;
    const restaurant = await findRestaurantById(db, id);
    return restaurant && { restaurant, grantScopes: null };
  }
  const row = await db
    .selectFrom('restaurants')
    .innerJoin('grants', 'grants.restaurant_id', 'restaurants.id')
    .selectAll('restaurants')
    .select('grants.scopes as grant_scopes')
    .where('restaurants.id', '=', id)
    .where('grants.integrator_org_id', '=', owner.id)
    .where('grants.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return undefined;
  const { grant_scopes, ...restaurant } = row;
  return { restaurant, grantScopes: grant_scopes };
}

/** Keyset page ordered by id; `afterId` is the last id of the previous page. */
export async function listReachableRestaurants(
  db: Db,
  owner: Owner,
  page: { afterId: string | null; limit: number },
): Promise<RestaurantRow[]> {
  let query = reachable(db, owner);
  if (page.afterId) query = query.where('restaurants.id', '>', page.afterId);
  return query.orderBy('restaurants.id').limit(page.limit).execute();
}
