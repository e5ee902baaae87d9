import { sql } from 'kysely';
import type { Executor } from './executor.js';

// What the webhooks service reads of console's tables to decide whether an attempt may go out: the
// restaurant's subscription (held while lapsed) and the integrator's grant (skipped without one). The
// dispatcher's fan-out statement joins the same tables itself (docs/architecture.md); these serve the
// checks made again at send, resend and release.

/** A restaurant and an integrator, as a grant pairs them. */
export interface GrantPair {
  restaurantId: string;
  integratorOrgId: string;
}

/** The key of a pair in the set `findGrantedPairs` returns. */
export const grantPairKey = (pair: GrantPair): string => `${pair.restaurantId}:${pair.integratorOrgId}`;

/** Which of these pairs an active grant covers with `scope` (their `grantPairKey`s). */
export async function findGrantedPairs(db: Executor, pairs: readonly GrantPair[], scope: string): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const { rows } = await sql<{ restaurant_id: string; integrator_org_id: string }>`
    select g.restaurant_id, g.integrator_org_id
    from unnest(${pairs.map((pair) => pair.restaurantId)}::text[], ${pairs.map((pair) => pair.integratorOrgId)}::text[])
      as p (restaurant_id, integrator_org_id)
    join grants g on g.restaurant_id = p.restaurant_id and g.integrator_org_id = p.integrator_org_id
    where g.status = 'active' and g.scopes @> array[${scope}]::text[]
  `.execute(db);
  return new Set(rows.map((row) => grantPairKey({ restaurantId: row.restaurant_id, integratorOrgId: row.integrator_org_id })));
}

/**
 * Which of these restaurants have lapsed: their subscription or their Partner API add-on is not active
 * (spec: events are held meanwhile). A restaurant that does not exist has not lapsed.
 */
export async function findLapsedRestaurantIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('restaurants')
    .select('id')
    .where('id', 'in', [...ids])
    .where((eb) => eb.or([eb('subscription_status', '<>', 'active'), eb('partner_api_addon', '=', false)]))
    .execute();
  return new Set(rows.map((row) => row.id));
}
