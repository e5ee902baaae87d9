import { sql } from 'kysely';
import { IdPrefix, isId } from '@partner/contracts';
import type { Db } from '../pool.js';
import type { RestaurantRow } from '../schema.js';
import type { Executor } from './executor.js';

export type Owner = { kind: 'restaurant'; id: string } | { kind: 'integrator'; id: string };

/** A path's restaurant id that is not one (a typo, `%00`) finds nothing, without a query. */
export async function findRestaurantById(db: Executor, id: string): Promise<RestaurantRow | undefined> {
  if (!isId(IdPrefix.restaurant, id)) return undefined;
  return db.selectFrom('restaurants').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * What an owner's listing shows: a restaurant key its own restaurant; an integrator key those whose
 * active grant includes `menu:read` (a grant for assets alone does not reveal the restaurant list).
 */
function listable(db: Executor, owner: Owner) {
  const base = db.selectFrom('restaurants').selectAll('restaurants');
  if (owner.kind === 'restaurant') return base.where('restaurants.id', '=', owner.id);
  return base.where((eb) =>
    eb.exists(
      eb
        .selectFrom('grants')
        .select('grants.id')
        .whereRef('grants.restaurant_id', '=', 'restaurants.id')
        .where('grants.integrator_org_id', '=', owner.id)
        .where('grants.status', '=', 'active')
        .where(sql<boolean>`grants.scopes @> array['menu:read']`),
    ),
  );
}

/**
 * False when the owner cannot reach the restaurant whatever the database holds (a restaurant's key
 * reaches its own restaurant only; an id that is not one names none): the lookup need not be made.
 */
export const mayReachRestaurant = (owner: Owner, id: string): boolean =>
  owner.kind === 'restaurant' ? owner.id === id : isId(IdPrefix.restaurant, id);

/**
 * The restaurant `id` as `owner` reaches it, with the scopes of the integrator's grant as
 * `grant_scopes` (null for the restaurant's own keys, which need no grant); no row when the owner does
 * not reach it. The one rule for every read made on a key owner's behalf; callers select what else
 * they need beside it.
 */
export function selectReachedRestaurant(db: Executor, owner: Owner, id: string) {
  const query = db.selectFrom('restaurants').selectAll('restaurants').where('restaurants.id', '=', id);
  if (owner.kind === 'restaurant') {
    return query.where('restaurants.id', '=', owner.id).select(sql<string[] | null>`null::text[]`.as('grant_scopes'));
  }
  return query
    .innerJoin('grants', 'grants.restaurant_id', 'restaurants.id')
    .where('grants.integrator_org_id', '=', owner.id)
    .where('grants.status', '=', 'active')
    .select(sql<string[] | null>`grants.scopes`.as('grant_scopes'));
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
  if (!mayReachRestaurant(owner, id)) return undefined;
  const row = await selectReachedRestaurant(db, owner, id).executeTakeFirst();
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
  let query = listable(db, owner);
  if (page.afterId) query = query.where('restaurants.id', '>', page.afterId);
  return query.orderBy('restaurants.id').limit(page.limit).execute();
}

/** Where an owner (restaurant or integrator) wants to be told about things, if it said. */
export async function findOwnerContactEmail(db: Executor, owner: Owner): Promise<string | null> {
  const row =
    owner.kind === 'restaurant'
      ? await db.selectFrom('restaurants').select('contact_email').where('id', '=', owner.id).executeTakeFirst()
      : await db.selectFrom('integrator_orgs').select('contact_email').where('id', '=', owner.id).executeTakeFirst();
  return row?.contact_email ?? null;
}
