import pTimeout from 'p-timeout';
import { TEST_KEY_LIMITS } from '@partner/auth';
import type { Logger, RedisClient } from '@partner/http';
import { TickBatch } from '../batching/tick-batch.js';
import { LocalWindowCounter } from './local-window-counter.js';

// One round trip for every check of an event-loop turn (a busy gateway's many requests), in one
// script run. The turn's checks are grouped by bucket and limit: KEYS are the groups' buckets, and
// ARGV[2i - 1], ARGV[2i] the limit and the number of checks of KEYS[i]. A group of n checks reads its
// count once and adds what it grants at once: the first min(n, limit - used) are allowed and the rest
// refused, exactly as n checks one after another would be, and a refused check does not count. Fixed
// one-minute windows aligned to Redis's own clock (every replica agrees on the window). Answers
// {used before, granted} per group, then the seconds left in the window. ARGV[2 * #KEYS + 1], when
// given, is the time in seconds from an injected clock (tests pin their windows).
const CHECK = `
local sec = tonumber(ARGV[2 * #KEYS + 1]) or tonumber(redis.call('TIME')[1])
local minuteStart = sec - (sec % 60)
local out = {}
for i, bucket in ipairs(KEYS) do
  local perMinute = tonumber(ARGV[2 * i - 1])
  local wanted = tonumber(ARGV[2 * i])
  local minuteKey = bucket .. ':m:' .. minuteStart
  local used = tonumber(redis.call('GET', minuteKey) or '0')
  local granted = math.max(0, math.min(wanted, perMinute - used))
  if granted > 0 and redis.call('INCRBY', minuteKey, granted) == granted then redis.call('EXPIRE', minuteKey, 61) end
  out[2 * i - 1] = used
  out[2 * i] = granted
end
out[2 * #KEYS + 1] = minuteStart + 60 - sec
return out
`;

// What a replica counted on its own during an outage, added to the shared window once Redis is back,
// if that window is still the minute it was counted in (ARGV[2], minutes since the epoch).
const ADD_LOCAL_COUNT = `
local sec = tonumber(ARGV[3]) or tonumber(redis.call('TIME')[1])
local minuteStart = sec - (sec % 60)
if minuteStart / 60 ~= tonumber(ARGV[2]) then return 0 end
local minuteKey = KEYS[1] .. ':m:' .. minuteStart
if redis.call('INCRBY', minuteKey, tonumber(ARGV[1])) == tonumber(ARGV[1]) then redis.call('EXPIRE', minuteKey, 61) end
return 1
`;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the minute window resets. */
  resetSeconds: number;
  /** Seconds to wait when refused. */
  retryAfterSeconds: number;
}

/** Where a client stands in a limit (spec 8): its ceiling, what is left of the window, and when the window resets. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetSeconds),
  };
}

/**
 * Test traffic reads live menus unmetered, so besides each test key's own day, all test keys of one
 * owner together get this many requests a UTC day.
 */
export const TEST_TRAFFIC_PER_OWNER_PER_DAY = 10_000;

export interface RateLimiterOptions {
  /** How long a check may wait for Redis before this replica counts on its own. */
  deadlineMs?: number;
  /** Milliseconds since the epoch, for tests; production windows follow Redis's own clock. */
  clock?: () => number;
  /**
   * Gateway replicas sharing the limits. While Redis is unreachable each replica allows
   * `floor(limit / replicas)` a minute on its own, so the fleet stays within the limit.
   */
  replicas?: number;
  /** While degraded, how often to ask Redis whether it is back. */
  probeIntervalMs?: number;
  logger?: Logger;
}

/**
 * Counts requests per bucket (a key, a client address, an embed visitor or restaurant) in one-minute
 * windows on Redis, shared by every replica. The client is expected to carry no per-command timer
 * (see connectRedis's `callerBoundsWaits`): each check is bounded here instead. The checks of one
 * event-loop turn go to Redis together, in one script run (`TickBatch`).
 *
 * While Redis is down, refusing, or slower than the deadline, the limiter degrades rather than failing
 * closed: each replica counts in process (`LocalWindowCounter`), allowing its share of the limit
 * (the limit divided by the replica count), so within a whole minute of an outage the fleet allows at
 * most the limit. A probe asks Redis every `probeIntervalMs` (while the client reports itself ready);
 * once it answers, the counts made locally in the current minute are added to the shared window and
 * checks go to Redis again. No request waits for a Redis already known to be unavailable.
 */
interface Check {
  bucket: string;
  perMinute: number;
}

export class RateLimiter {
  private readonly shas = new Map<string, string>();
  private readonly shared = new TickBatch<Check, RateLimitDecision>((checks) => this.checkShared(checks));
  private readonly local = new LocalWindowCounter();
  private degraded = false;
  private probing = false;
  private nextProbeAt = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /** Whether checks are counted in this process (Redis unavailable) rather than on Redis. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  async check(bucket: string, perMinute: number): Promise<RateLimitDecision> {
    if (!this.degraded) {
      if (this.redis.isReady) {
        try {
          return await this.shared.add({ bucket, perMinute });
        } catch (err) {
          this.degrade(err);
        }
      } else {
        this.degrade(new Error('the Redis client is not connected'));
      }
    }
    this.probeIfDue();
    return this.checkLocally(bucket, perMinute);
  }

  private async checkShared(checks: Check[]): Promise<RateLimitDecision[]> {
    const clock = this.options.clock;
    // The turn's checks by bucket and limit, in order of arrival; each check's place in its group.
    const groups = new Map<string, { check: Check; count: number }>();
    const places = checks.map((check) => {
      const id = `${check.bucket}\n${check.perMinute}`;
      const group = groups.get(id) ?? { check, count: 0 };
      groups.set(id, group);
      return { id, nth: group.count++ };
    });
    const ordered = [...groups.values()];
    const reply = (await this.withinDeadline(
      this.run(
        CHECK,
        ordered.map((group) => this.bucketKey(group.check.bucket)),
        [
          ...ordered.flatMap((group) => [String(group.check.perMinute), String(group.count)]),
          ...(clock ? [String(Math.floor(clock() / 1000))] : []),
        ],
      ),
    )) as number[];
    const reset = Number(reply[2 * ordered.length]);
    const answers = new Map([...groups.keys()].map((id, i) => [id, { used: Number(reply[2 * i]), granted: Number(reply[2 * i + 1]) }]));
    return checks.map((check, i) => {
      const { id, nth } = places[i]!;
      const { used, granted } = answers.get(id)!;
      const allowed = nth < granted;
      return {
        allowed,
        limit: check.perMinute,
        remaining: allowed ? check.perMinute - (used + nth + 1) : 0,
        resetSeconds: reset,
        retryAfterSeconds: reset,
      };
    });
  }

  private checkLocally(bucket: string, perMinute: number): RateLimitDecision {
    const share = Math.floor(perMinute / (this.options.replicas ?? 1));
    const taken = this.local.take(bucket, share, this.now());
    return {
      allowed: taken.allowed,
      limit: share,
      remaining: Math.max(0, share - taken.used),
      resetSeconds: taken.resetSeconds,
      retryAfterSeconds: taken.resetSeconds,
    };
  }

  private degrade(err: unknown): void {
    // Every check in flight when Redis went away lands here; one line tells the story.
    if (this.degraded) return;
    this.degraded = true;
    this.nextProbeAt = Date.now() + (this.options.probeIntervalMs ?? 500);
    this.options.logger?.warn(
      { err: err instanceof Error ? err.message : String(err), replicas: this.options.replicas ?? 1 },
      'rate limit: Redis unavailable, each replica counts its share of every limit locally',
    );
  }

  private probeIfDue(): void {
    if (this.probing || !this.redis.isReady || Date.now() < this.nextProbeAt) return;
    this.probing = true;
    void this.recover()
      .catch(() => {
        this.nextProbeAt = Date.now() + (this.options.probeIntervalMs ?? 500);
      })
      .finally(() => {
        this.probing = false;
      });
  }

  private async recover(): Promise<void> {
    await this.withinDeadline(this.redis.ping());
    const clock = this.options.clock;
    const { minute, counts } = this.local.counted(this.now());
    // Each bucket leaves the local counter as soon as Redis has added it: a hand-over cut short by the
    // deadline is taken up by the next probe with what is left, never adding a bucket twice.
    await this.withinDeadline(
      Promise.all(
        counts.map(async ([bucket, count]) => {
          await this.run(
            ADD_LOCAL_COUNT,
            [this.bucketKey(bucket)],
            [String(count), String(minute), ...(clock ? [String(Math.floor(clock() / 1000))] : [])],
          );
          this.local.handedOver(bucket, count, minute);
        }),
      ),
    );
    // Counted from here on by Redis. What was counted locally while the hand-over ran stays here, and
    // only a new outage within the same minute would see it (it then refuses a little sooner).
    this.degraded = false;
    this.options.logger?.info({ buckets: counts.length }, 'rate limit: Redis is back, counting on Redis again');
  }

  /**
   * Every bucket's key carries the hash tag `{rl}`: one script run checks a turn's buckets together,
   * and Redis Cluster runs a script only over keys of one slot. The trade: all rate limiting lives on
   * one shard (a few thousand script runs a second per gateway, well within one node).
   */
  private bucketKey(bucket: string): string {
    return `${this.prefix}{rl}:${bucket}`;
  }

  private now(): number {
    return this.options.clock?.() ?? Date.now();
  }

  private async withinDeadline<T>(work: Promise<T>): Promise<T> {
    const deadlineMs = this.options.deadlineMs ?? 1_000;
    return pTimeout(work, {
      milliseconds: deadlineMs,
      // A function, so the error (and its stack) is built only when the deadline passes.
      fallback: () => {
        throw new Error(`no answer from Redis within ${deadlineMs} ms`);
      },
    });
  }

  private async run(script: string, keys: string[], args: string[]): Promise<unknown> {
    let sha = this.shas.get(script) ?? (await this.load(script));
    try {
      return await this.redis.evalSha(sha, { keys, arguments: args });
    } catch (err) {
      // Redis restarted or flushed its script cache: load again once.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      sha = await this.load(script);
      return this.redis.evalSha(sha, { keys, arguments: args });
    }
  }

  private async load(script: string): Promise<string> {
    const sha = await this.redis.scriptLoad(script);
    this.shas.set(script, sha);
    return sha;
  }
}

/** A key's limits: a live key's own rate; a test key's fixed caps, whatever rate it was given (spec 5.2). */
export function limitsFor(key: { environment: 'live' | 'test'; rate_limit_per_min: number }) {
  return key.environment === 'test' ? TEST_KEY_LIMITS : { perMinute: key.rate_limit_per_min, perDay: null };
}
