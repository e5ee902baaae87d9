import type { KeyPrincipal } from '@partner/auth';
import { findReachableRestaurant, type Executor, type RestaurantRow } from '@partner/db';
import { AppError } from '@partner/kit';

/** A restaurant the key may not reach is indistinguishable from one that does not exist. */
export async function requireReachableRestaurant(db: Executor, principal: KeyPrincipal, restaurantId: string): Promise<RestaurantRow> {
  const restaurant = await findReachableRestaurant(db, principal.owner, restaurantId);
  if (!restaurant) throw new AppError('not_found', 'No such restaurant.');
  return restaurant;
}

/** Spec 3: a lapsed subscription or a switched-off Partner API add-on pauses data access, live and test alike. */
export function requireActiveSubscription(restaurant: RestaurantRow): void {
  if (restaurant.subscription_status !== 'active' || !restaurant.partner_api_addon) {
    throw new AppError(
      'subscription_inactive',
      "This restaurant's subscription or Partner API add-on is not active; data access is paused until it is renewed.",
    );
  }
}
