import { sql } from 'kysely';
import type { RestaurantRow } from '../schema.js';
import type { Executor } from './executor.js';
import { mayReachRestaurant, type Owner, selectReachedRestaurant } from './restaurants.js';
import { killSwitchOn, PLATFORM_SETTING_KEYS } from './settings.js';

/** More draft names than this are not looked for: the reply guard's pattern stays small. */
const MOST_DRAFT_NAMES = 500;

export interface ConciergeContext {
  restaurant: RestaurantRow;
  /** The scopes of the integrator's grant; null for the restaurant's own keys, which need no grant. */
  grantScopes: string[] | null;
  /** The platform-wide switch that stops every restaurant's assistant. */
  killSwitch: boolean;
  /**
   * Names of the restaurant's draft dishes, which diners must not hear of before they are published
   * (the reply guard withholds them), the most recently changed first; only when asked for. Archived
   * dishes are no secret, and their names are often those of today's dishes.
   */
  draftNames: string[];
}

/**
 * Everything a concierge turn checks and grounds on before the model is called, in one round trip:
 * the restaurant if the owner reaches it, the grant's scopes, the kill switch and (`draftNames`) the
 * draft dishes' names. A turn waits for each round trip in turn, so one statement instead of two
 * rounds of reads is time the guest sees (docs/decisions.md). Nothing is read for a restaurant the
 * owner does not reach: the subqueries run for the row that matched.
 */
export async function findConciergeContext(
  db: Executor,
  owner: Owner,
  restaurantId: string,
  options: { draftNames: boolean },
): Promise<ConciergeContext | undefined> {
  if (!mayReachRestaurant(owner, restaurantId)) return undefined;
  const row = await selectReachedRestaurant(db, owner, restaurantId)
    .select((eb) =>
      eb.selectFrom('platform_settings').select('value').where('key', '=', PLATFORM_SETTING_KEYS.conciergeKillSwitch).as('kill_switch'),
    )
    // Literals, not parameters: a generic plan (a prepared statement) must still see the drafts' index.
    .select(
      options.draftNames
        ? sql<string[]>`array(
            select name from items
            where restaurant_id = restaurants.id and status = 'draft' and deleted_at is null
            order by updated_at desc limit ${sql.lit(MOST_DRAFT_NAMES)})`.as('draft_names')
        : sql<string[]>`'{}'::text[]`.as('draft_names'),
    )
    .executeTakeFirst();
  return row && contextOf(row);
}

function contextOf(row: RestaurantRow & { kill_switch: unknown; draft_names: string[]; grant_scopes: string[] | null }): ConciergeContext {
  const { kill_switch, draft_names, grant_scopes, ...restaurant } = row;
  return { restaurant, grantScopes: grant_scopes, killSwitch: killSwitchOn(kill_switch), draftNames: draft_names };
}
