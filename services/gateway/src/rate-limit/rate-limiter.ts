import pTimeout from 'p-timeout';
import { AppError } from '@partner/contracts';
import type { RedisClient } from '@partner/http';

// One round trip per request. Fixed one-minute windows aligned to Redis's own clock (every replica
// agrees on the window), plus a UTC-day window for test keys. A refused request does not count.
// ARGV[3], when given, is the time in seconds from an injected clock (tests pin their windows).
const SCRIPT = `
local sec = tonumber(ARGV[3]) or tonumber(redis.call('TIME')[1])
local perMinute = tonumber(ARGV[1])
local perDay = tonumber(ARGV[2])
local minuteStart = sec - (sec % 60)
local minuteKey = KEYS[1] .. ':m:' .. minuteStart
local minuteReset = minuteStart + 60 - sec
local used = tonumber(redis.call('GET', minuteKey) or '0')
if used >= perMinute then
  return {0, 0, minuteReset, minuteReset}
end
local dayKey
if perDay > 0 then
  local dayStart = sec - (sec % 86400)
  dayKey = KEYS[1] .. ':d:' .. dayStart
  local usedToday = tonumber(redis.call('GET', dayKey) or '0')
  if usedToday >= perDay then
    return {0, perMinute - used, minuteReset, dayStart + 86400 - sec}
  end
end
used = redis.call('INCR', minuteKey)
if used == 1 then redis.call('EXPIRE', minuteKey, 61) end
if dayKey then
  if redis.call('INCR', dayKey) == 1 then redis.call('EXPIRE', dayKey, 86401) end
end
return {1, perMinute - used, minuteReset, 0}
`;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the minute window resets. */
  resetSeconds: number;
  /** Seconds to wait when refused (the minute window, or the rest of the day for a daily cap). */
  retryAfterSeconds: number;
}

/** Test keys: 60 a minute and 5,000 a day, whatever their configured rate (spec 5.2). */
export const TEST_KEY_LIMITS = { perMinute: 60, perDay: 5_000 } as const;

/**
 * Test traffic reads live menus unmetered, so besides each test key's own day, all test keys of one
 * owner together get this many requests a UTC day.
 */
export const TEST_TRAFFIC_PER_OWNER_PER_DAY = 10_000;

/**
 * Counts requests per key in Redis, shared by every replica. The client is expected to carry no
 * per-command timer (see connectRedis's `callerBoundsWaits`): each check is bounded here instead, and a
 * Redis that is down, slow or refusing answers `503 service_unavailable` rather than holding the
 * request or letting it through uncounted.
 */
export class RateLimiter {
  private sha: string | null = null;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly options: {
      /** How long a check may wait for Redis before answering 503. */
      deadlineMs?: number;
      /** Milliseconds since the epoch, for tests; production windows follow Redis's own clock. */
      clock?: () => number;
    } = {},
  ) {}

  async check(keyId: string, limits: { perMinute: number; perDay: number | null }): Promise<RateLimitDecision> {
    const reply = (await this.withinDeadline(
      this.run(
        [`${this.prefix}rl:${keyId}`],
        [
          String(limits.perMinute),
          String(limits.perDay ?? 0),
          ...(this.options.clock ? [String(Math.floor(this.options.clock() / 1000))] : []),
        ],
      ),
    )) as number[];
    const [allowed, remaining, reset, retryAfter] = reply.map(Number) as [number, number, number, number];
    return {
      allowed: allowed === 1,
      limit: limits.perMinute,
      remaining: Math.max(0, remaining),
      resetSeconds: reset,
      retryAfterSeconds: retryAfter,
    };
  }

  private async withinDeadline(work: Promise<unknown>): Promise<unknown> {
    const deadlineMs = this.options.deadlineMs ?? 1_000;
    try {
      return await pTimeout(work, {
        milliseconds: deadlineMs,
        // A function, so the error (and its stack) is built only when the deadline passes.
        fallback: () => {
          throw new Error(`no answer from Redis within ${deadlineMs} ms`);
        },
      });
    } catch (err) {
      throw new AppError('service_unavailable', 'Rate limiting is briefly unavailable. Retry shortly.', { cause: err });
    }
  }

  private async run(keys: string[], args: string[]): Promise<unknown> {
    this.sha ??= await this.redis.scriptLoad(SCRIPT);
    try {
      return await this.redis.evalSha(this.sha, { keys, arguments: args });
    } catch (err) {
      // Redis restarted or flushed its script cache: load again once.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      this.sha = await this.redis.scriptLoad(SCRIPT);
      return this.redis.evalSha(this.sha, { keys, arguments: args });
    }
  }
}

export function limitsFor(key: { environment: 'live' | 'test'; rate_limit_per_min: number }) {
  return key.environment === 'test'
    ? { perMinute: Math.min(key.rate_limit_per_min, TEST_KEY_LIMITS.perMinute), perDay: TEST_KEY_LIMITS.perDay }
    : { perMinute: key.rate_limit_per_min, perDay: null };
}
