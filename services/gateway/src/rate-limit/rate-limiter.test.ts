import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, connectRedis, type RedisClient } from '@partner/kit';
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

async function awayFromBoundary() {
  const [seconds] = await redis.time();
  const left = 60 - (Number(seconds) % 60);
  if (left < 3) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

describe('RateLimiter', () => {
  it('caps a test key per day across minutes, answering Retry-After until the UTC day ends', async () => {
    await awayFromBoundary();
    const limiter = new RateLimiter(redis, prefix);
    const limits = { perMinute: 100, perDay: 3 };
    for (let i = 0; i < 3; i++) expect((await limiter.check('key_day', limits)).allowed).toBe(true);
    const refused = await limiter.check('key_day', limits);
    expect(refused.allowed).toBe(false);
    const [seconds] = await redis.time();
    const untilMidnight = 86_400 - (Number(seconds) % 86_400);
    expect(Math.abs(refused.retryAfterSeconds - untilMidnight)).toBeLessThanOrEqual(1);
    expect(refused.remaining).toBe(97);
  });

  it('does not count refused requests', async () => {
    await awayFromBoundary();
    const limiter = new RateLimiter(redis, prefix);
    const limits = { perMinute: 2, perDay: null };
    await limiter.check('key_min', limits);
    await limiter.check('key_min', limits);
    for (let i = 0; i < 5; i++) expect((await limiter.check('key_min', limits)).allowed).toBe(false);
    const [seconds] = await redis.time();
    const stored = await redis.get(`${prefix}rl:key_min:m:${Number(seconds) - (Number(seconds) % 60)}`);
    expect(stored).toBe('2');
  });

  it('loads its script again after Redis forgot it', async () => {
    const limiter = new RateLimiter(redis, prefix);
    expect((await limiter.check('key_flush', { perMinute: 5, perDay: null })).allowed).toBe(true);
    await redis.scriptFlush();
    expect((await limiter.check('key_flush', { perMinute: 5, perDay: null })).allowed).toBe(true);
  });

  describe('on a client that leaves waits to its caller, as the gateway runs it', () => {
    let hotPath: RedisClient;
    beforeAll(async () => {
      hotPath = await connectRedis(redisUrl, () => {}, { callerBoundsWaits: true });
    });
    afterAll(() => hotPath.destroy());
    const serviceUnavailable = expect.objectContaining({ code: 'service_unavailable', status: 503 }) as AppError;

    it('answers 503 service_unavailable when Redis does not answer within the deadline', async () => {
      const limiter = new RateLimiter(hotPath, prefix, 100);
      expect((await limiter.check('key_slow', { perMinute: 5, perDay: null })).allowed).toBe(true);
      await redis.sendCommand(['CLIENT', 'PAUSE', '600', 'WRITE']);
      const started = performance.now();
      await expect(limiter.check('key_slow', { perMinute: 5, perDay: null })).rejects.toEqual(serviceUnavailable);
      expect(performance.now() - started).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await limiter.check('key_slow', { perMinute: 5, perDay: null })).allowed).toBe(true);
    });

    it('answers 503 at once while disconnected, and counts again once reconnected', async () => {
      const limiter = new RateLimiter(hotPath, prefix, 10_000);
      const limits = { perMinute: 5, perDay: null };
      expect((await limiter.check('key_gone', limits)).allowed).toBe(true);
      await redis.sendCommand(['CLIENT', 'KILL', 'ID', String(await hotPath.clientId())]);
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
