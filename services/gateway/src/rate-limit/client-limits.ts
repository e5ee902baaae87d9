import { createHash } from 'node:crypto';
import { AppError } from '@partner/contracts';
import type { RateLimiter } from './rate-limiter.js';

export interface EmbedLimits {
  perVisitorPerMin: number;
  perRestaurantPerMin: number;
}

/** A visitor as the concierge may count it: a hash of the client address, never the address itself. */
export const visitorOf = (clientAddress: string | undefined): string =>
  createHash('sha256')
    .update(clientAddress ?? 'unknown')
    .digest('base64url')
    .slice(0, 22);

/**
 * What a client address may cost before any key vouches for it: requests to public routes (the menu
 * page, asset files) and key lookups that must go to the database. A flood of made-up keys or of page
 * loads from one address is refused before it reaches Postgres or a service.
 */
export async function checkClientLimit(limiter: RateLimiter, perMinute: number, client: string): Promise<void> {
  const decision = await limiter.check(`client:${client}`, { perMinute, perDay: null });
  if (!decision.allowed) {
    throw new AppError('rate_limited', 'Too many requests from this address. Retry after the seconds in Retry-After.', {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
}

/**
 * A publishable key is printed in pages, and its origin check binds only browsers: a script can send
 * any Origin. So its concierge requests are also limited per visitor and per restaurant, on the same
 * Redis windows as the key's own limit (every replica agrees). A visitor refused does not count
 * against the restaurant.
 */
export async function checkEmbedLimits(limiter: RateLimiter, limits: EmbedLimits, restaurantId: string, visitor: string): Promise<void> {
  const buckets = [
    { id: `embed:${restaurantId}:${visitor}`, perMinute: limits.perVisitorPerMin, who: 'this visitor' },
    { id: `embed:${restaurantId}`, perMinute: limits.perRestaurantPerMin, who: "this restaurant's embeds" },
  ];
  for (const bucket of buckets) {
    const decision = await limiter.check(bucket.id, { perMinute: bucket.perMinute, perDay: null });
    if (!decision.allowed) {
      throw new AppError('rate_limited', `Too many assistant requests from ${bucket.who}. Retry after the seconds in Retry-After.`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
  }
}
