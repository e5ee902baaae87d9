import type { KeyPrincipal } from '@partner/auth';
import type { TRestaurant } from '@partner/contracts';
import { findRestaurantById, listReachableRestaurants, presentRestaurant, type Db } from '@partner/db';
import { decodeListCursor, encodeListCursor, requireActiveSubscription } from '@partner/platform';

export interface RestaurantPage {
  data: TRestaurant[];
  meta: { nextCursor: string | null };
}

/**
 * The restaurants a key reaches: its own, or for an integrator every restaurant with an active grant.
 * Cursors are bound to the key's owner: another owner's cursor is refused as foreign.
 */
export async function listRestaurants(
  deps: { db: Db; cursorSecret: string },
  principal: KeyPrincipal,
  query: { limit: number; cursor?: string },
): Promise<RestaurantPage> {
  if (principal.owner.kind === 'restaurant') {
    const own = await findRestaurantById(deps.db, principal.owner.id);
    if (own) requireActiveSubscription(own);
  }
  const binding = { listing: 'restaurants', scope: principal.owner.id, filters: [] };
  const afterId = query.cursor ? decodeListCursor(deps.cursorSecret, query.cursor, binding).after! : null;
  const rows = await listReachableRestaurants(deps.db, principal.owner, { afterId, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeListCursor(deps.cursorSecret, binding, { after: last.id }) : null;
  return { data: page.map(presentRestaurant), meta: { nextCursor } };
}
