import type { HmacKey } from '@partner/signing';
import type { KeyPrincipal } from '@partner/auth';
import { type Db, findRestaurantById, listReachableRestaurants } from '@partner/db';
import { presentRestaurant } from '@partner/views';
import { decodeListCursor, encodeListCursor } from '@partner/signing';
import { requireActiveSubscription } from '@partner/entitlements';
import type { TRestaurant } from '@partner/contracts';

export interface RestaurantPage {
  data: TRestaurant[];
  meta: { nextCursor: string | null };
}

/**
 * The restaurants a key reaches: its own, or for an integrator every restaurant with an active grant.
 * Cursors are bound to the key's owner: another owner's cursor is refused as foreign.
 */
export async function listRestaurants(
  deps: { db: Db; cursorKey: HmacKey },
  principal: KeyPrincipal,
  query: { limit: number; cursor?: string },
): Promise<RestaurantPage> {
  if (principal.owner.kind === 'restaurant') {
    const own = await findRestaurantById(deps.db, principal.owner.id);
    if (own) requireActiveSubscription(own);
  }
  const binding = { listing: 'restaurants', scope: principal.owner.id, filters: [] };
  const afterId = query.cursor ? decodeListCursor(deps.cursorKey, query.cursor, binding).after! : null;
  const rows = await listReachableRestaurants(deps.db, principal.owner, { afterId, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeListCursor(deps.cursorKey, binding, { after: last.id }) : null;
  return { data: page.map(presentRestaurant), meta: { nextCursor } };
}
