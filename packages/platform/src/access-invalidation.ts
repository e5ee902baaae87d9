import type { RedisClient } from '@partner/kit';

/**
 * Console tells every catalog replica over Redis pub/sub, once a change has committed, that cached
 * item lookups may be stale: an item changed (edited, deleted, its model), or a restaurant did
 * (subscription, add-on, quota, currency, an integrator's grant). Replicas drop what matches at once.
 */
export type AccessInvalidation = { itemId: string } | { restaurantId: string };

export const accessInvalidationChannel = (prefix: string): string => `${prefix}access:invalidate`;

export async function publishAccessInvalidation(redis: RedisClient, prefix: string, message: AccessInvalidation): Promise<void> {
  await redis.publish(accessInvalidationChannel(prefix), JSON.stringify(message));
}

export function parseAccessInvalidation(raw: string): AccessInvalidation | null {
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.itemId === 'string') return { itemId: value.itemId };
    if (typeof value.restaurantId === 'string') return { restaurantId: value.restaurantId };
  } catch {
    // fall through: a malformed message invalidates nothing
  }
  return null;
}
