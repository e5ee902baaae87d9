import { createHash } from 'node:crypto';
import { AppError } from '@partner/contracts';
import type { RedisClient } from '@partner/http';

const WINDOW_SECONDS = 15 * 60;

/**
 * Guessing is slowed per address signed in to (10 tries in 15 minutes) and per client (100): one
 * Redis counter each, expiring with its window. A password that is right still counts.
 */
export class SignInLimits {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits = { perEmail: 10, perClient: 100 },
  ) {}

  async take(attempt: { email?: string; client: string }): Promise<void> {
    const counters: Array<[string, number]> = [[`client:${attempt.client}`, this.limits.perClient]];
    if (attempt.email) counters.push([`email:${createHash('sha256').update(attempt.email).digest('base64url')}`, this.limits.perEmail]);
    for (const [name, limit] of counters) {
      const key = `${this.prefix}console:sign-in:${name}`;
      const [count, , ttl] = (await this.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').ttl(key).exec()) as [
        number,
        unknown,
        number,
      ];
      if (count > limit) {
        throw new AppError('rate_limited', 'Too many sign-in attempts. Wait a few minutes and try again.', {
          headers: { 'Retry-After': String(Math.max(ttl, 1)) },
        });
      }
    }
  }
}
