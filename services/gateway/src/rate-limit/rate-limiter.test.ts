import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '@partner/contracts';
import { connectRedis, type RedisClient } from '@partner/http';
import { startOwnRedisServer, type OwnRedisServer } from '@partner/testing';
import { limitsFor, RateLimiter, TEST_KEY_LIMITS } from './rate-limiter.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: RedisClient;
const prefix = `rlt${randomBytes(4).toString('hex')}:`;
beforeAll(async () => {
  redis = await connectRedis(redisUrl, () => {});
});
afterAll(async () => {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await redis.del(keys);
  await redis.quit();
});

/** A clock the test sets: windows follow it, so no test waits for (or races) a minute boundary. */
function clockAt(iso: string) {
  const clock = { ms: Date.parse(iso) };
  return { clock, now: () => clock.ms };
}

describe('RateLimiter', () => {
  it('caps a test key per day across minutes, answering Retry-After until the UTC day ends', async () => {
    const { clock, now } = clockAt('2026-11-23T22:00:10Z');
    const limiter = new RateLimiter(redis, prefix, { clock: now });
    const limits = { perMinute: 100, perDay: 3 };
    for (let i = 0; i < 3; i++) {
      expect((await limiter.check('key_day', limits)).allowed).toBe(true);
      clock.ms += 60_000; // a new minute each time: only the daily cap can refuse
    }
    const refused = await limiter.check('key_day', limits);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(2 * 3600 - 3 * 60 - 10);
    expect(refused.remaining).toBe(100);
    clock.ms = Date.parse('2026-11-24T00:00:00Z');
    expect((await limiter.check('key_day', limits)).allowed).toBe(true);
  });

  it('does not count refused requests, and opens again with the next minute', async () => {
    const { clock, now } = clockAt('2026-11-23T12:00:30Z');
    const limiter = new RateLimiter(redis, prefix, { clock: now });
    const limits = { perMinute: 2, perDay: null };
    await limiter.check('key_min', limits);
    await limiter.check('key_min', limits);
    for (let i = 0; i < 5; i++) {
      const refused = await limiter.check('key_min', limits);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 30, resetSeconds: 30 });
    }
    const minute = Math.floor(Date.parse('2026-11-23T12:00:00Z') / 1000);
    expect(await redis.get(`${prefix}rl:key_min:m:${minute}`)).toBe('2');
    clock.ms += 30_000;
    expect((await limiter.check('key_min', limits)).allowed).toBe(true);
  });

  // These tests pause Redis, kill its clients and flush its scripts: on a redis-server of their own,
  // never the shared one.
  describe('on a client that leaves waits to its caller, as the gateway runs it', () => {
    let own: OwnRedisServer;
    let admin: RedisClient;
    let hotPath: RedisClient;
    beforeAll(async () => {
      own = await startOwnRedisServer();
      admin = await connectRedis(own.url, () => {});
      hotPath = await connectRedis(own.url, () => {}, { callerBoundsWaits: true });
    });
    afterAll(async () => {
      hotPath.destroy();
      await admin.quit();
      await own.stop();
    });
    const serviceUnavailable = expect.objectContaining({ code: 'service_unavailable', status: 503 }) as AppError;

    it('loads its script again after Redis forgot it', async () => {
      const limiter = new RateLimiter(hotPath, prefix);
      expect((await limiter.check('key_flush', { perMinute: 5, perDay: null })).allowed).toBe(true);
      await admin.scriptFlush();
      expect((await limiter.check('key_flush', { perMinute: 5, perDay: null })).allowed).toBe(true);
    });

    it('answers 503 service_unavailable when Redis does not answer within the deadline', async () => {
      const limiter = new RateLimiter(hotPath, prefix, { deadlineMs: 100 });
      expect((await limiter.check('key_slow', { perMinute: 5, perDay: null })).allowed).toBe(true);
      await admin.sendCommand(['CLIENT', 'PAUSE', '600', 'WRITE']);
      const started = performance.now();
      await expect(limiter.check('key_slow', { perMinute: 5, perDay: null })).rejects.toEqual(serviceUnavailable);
      expect(performance.now() - started).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await limiter.check('key_slow', { perMinute: 5, perDay: null })).allowed).toBe(true);
    });

    it('answers 503 at once while disconnected, and counts again once reconnected', async () => {
      const limiter = new RateLimiter(hotPath, prefix, { deadlineMs: 10_000 });
      const limits = { perMinute: 5, perDay: null };
      expect((await limiter.check('key_gone', limits)).allowed).toBe(true);
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(await hotPath.clientId())]);
      const started = performance.now();
      await expect(limiter.check('key_gone', limits)).rejects.toEqual(serviceUnavailable);
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect.poll(() => hotPath.isReady).toBe(true);
      expect((await limiter.check('key_gone', limits)).allowed).toBe(true);
    });
  });

  it('holds test keys to 60 a minute and 5,000 a day whatever their configured rate', () => {
    expect(limitsFor({ environment: 'test', rate_limit_per_min: 10_000 })).toEqual({ perMinute: 60, perDay: 5_000 });
    expect(limitsFor({ environment: 'test', rate_limit_per_min: 10 })).toEqual({ perMinute: 10, perDay: TEST_KEY_LIMITS.perDay });
    expect(limitsFor({ environment: 'live', rate_limit_per_min: 10_000 })).toEqual({ perMinute: 10_000, perDay: null });
  });
});
