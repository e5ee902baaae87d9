import type { RedisClient } from '@partner/http';

export interface VisitorSharePolicy {
  /** Percent of the restaurant's monthly allowance one visitor may spend... */
  percent: number;
  /** ...but never fewer messages than this. */
  minimum: number;
}

/**
 * How much of a restaurant's monthly concierge allowance one visitor of its pages may spend. The
 * publishable key is public, so without this one script could spend the whole month. Counted on Redis
 * per restaurant, billing period and visitor (a hash of the client address, from the gateway), expiring
 * with the period. A lost count (a Redis restart) gives a visitor a fresh share, never more allowance.
 */
export class VisitorShares {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly policy: VisitorSharePolicy,
  ) {}

  shareOf(allowance: number): number {
    return Math.max(this.policy.minimum, Math.ceil((allowance * this.policy.percent) / 100));
  }

  /** Whether this visitor may spend one more message of the period. */
  async take(request: { restaurantId: string; visitor: string; period: { start: Date; end: Date }; allowance: number }): Promise<boolean> {
    const key = `${this.prefix}cvs:${request.restaurantId}:${request.period.start.getTime()}:${request.visitor}`;
    const [used] = (await this.redis.multi().incr(key).pExpireAt(key, request.period.end.getTime()).exec()) as [number, unknown];
    return used <= this.shareOf(request.allowance);
  }
}
