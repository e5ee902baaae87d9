import type { KeyPrincipal } from '@partner/auth';
import { type Executor, findRestaurantForOwner, type RestaurantRow } from '@partner/db';
import type { UsageMetric } from './usage.repository.js';
import { AppError, type TScope } from '@partner/contracts';
import { billingPeriod } from './billing-period.js';
import type { UsageMeter } from './usage-meter.js';

// The restaurant-level questions every service asks the same way (DESIGN.md section 2): can this
// key reach the restaurant, is its subscription active, is there quota left.

/** What the entitlement checks read of a restaurant. */
export type EntitledRestaurant = Pick<
  RestaurantRow,
  'id' | 'subscription_status' | 'partner_api_addon' | 'billing_anchor' | 'monthly_quota' | 'overage_budget'
>;

/**
 * The restaurant, if the key reaches it with `scope`: its own restaurant, or one whose owner granted
 * the integrator access with that scope. Unreachable and missing are the same 404.
 */
export async function requireRestaurantAccess(
  db: Executor,
  principal: KeyPrincipal,
  restaurantId: string,
  scope: TScope,
): Promise<RestaurantRow> {
  const found = await findRestaurantForOwner(db, principal.owner, restaurantId);
  if (!found) throw new AppError('not_found', 'No such restaurant.');
  requireEntitlement(found.restaurant, found.grantScopes, scope);
  return found.restaurant;
}

/** For a restaurant already known to be reached: the grant's scope (integrators) and the subscription. */
export function requireEntitlement(restaurant: EntitledRestaurant, grantScopes: string[] | null, scope: TScope): void {
  if (grantScopes && !grantScopes.includes(scope)) {
    throw new AppError('forbidden_scope', `The restaurant's grant to your organisation does not include the ${scope} scope.`);
  }
  requireActiveSubscription(restaurant);
}

/** Spec 3: a lapsed subscription or a switched-off Partner API add-on pauses data access, live and test alike. */
export function requireActiveSubscription(restaurant: Pick<RestaurantRow, 'subscription_status' | 'partner_api_addon'>): void {
  if (restaurant.subscription_status !== 'active' || !restaurant.partner_api_addon) {
    throw new AppError(
      'subscription_inactive',
      "This restaurant's subscription or Partner API add-on is not active; data access is paused until it is renewed.",
    );
  }
}

const QUOTA_METRIC: UsageMetric = 'api_requests';

/**
 * Counts one request against the restaurant's monthly quota: the included amount plus the overage
 * budget the restaurant opted into (an integration cannot raise it). Granted by Postgres, so exact
 * under any concurrency and across replicas. Test keys are never counted.
 */
export async function meterApiRequest(
  meter: UsageMeter,
  principal: KeyPrincipal,
  restaurant: EntitledRestaurant,
  now: Date,
): Promise<void> {
  if (principal.environment === 'test') return;
  const period = billingPeriod(restaurant.billing_anchor, now);
  const granted = await meter.take({
    restaurantId: restaurant.id,
    metric: QUOTA_METRIC,
    periodStart: period.start,
    limit: restaurant.monthly_quota + restaurant.overage_budget,
  });
  if (!granted) {
    throw new AppError(
      'quota_exceeded',
      "This restaurant's monthly API quota, overage included, is used up. It resets with the billing period.",
      {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil((period.end.getTime() - now.getTime()) / 1000))) },
      },
    );
  }
}

/** No limit: embed views are counted for the owner to see, and limited as API requests (above). */
const UNLIMITED = 2_147_483_647;

/** Counts one load of the viewer embed (live keys: test traffic is never counted). */
export async function countEmbedView(meter: UsageMeter, principal: KeyPrincipal, restaurant: EntitledRestaurant, now: Date): Promise<void> {
  if (principal.environment === 'test') return;
  const period = billingPeriod(restaurant.billing_anchor, now);
  await meter.take({ restaurantId: restaurant.id, metric: 'embed_views', periodStart: period.start, limit: UNLIMITED });
}
