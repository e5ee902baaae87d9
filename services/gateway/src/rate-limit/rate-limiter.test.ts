import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisClient } from '@partner/http';
import { startOwnRedisServer, type OwnRedisServer } from '@partner/testing';
import { TEST_KEY_LIMITS } from '@partner/auth';
import { limitsFor, RateLimiter } from './rate-limiter.js';

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

/** A check (which is what sets a probe off while degraded), then whether the limiter is still degraded. */
async function stillDegraded(limiter: RateLimiter, bucket: string, perMinute: number): Promise<boolean> {
  await limiter.check(bucket, perMinute);
  return limiter.isDegraded;
}

describe('RateLimiter', () => {
  it('does not count refused requests, and opens again with the next minute', async () => {
    const { clock, now } = clockAt('2026-11-23T12:00:30Z');
    const limiter = new RateLimiter(redis, prefix, { clock: now });
    await limiter.check('key_min', 2);
    await limiter.check('key_min', 2);
    for (let i = 0; i < 5; i++) {
      const refused = await limiter.check('key_min', 2);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 30, resetSeconds: 30 });
    }
    const minute = Math.floor(Date.parse('2026-11-23T12:00:00Z') / 1000);
    expect(await redis.get(`${prefix}{rl}:key_min:m:${minute}`)).toBe('2');
    clock.ms += 30_000;
    expect((await limiter.check('key_min', 2)).allowed).toBe(true);
  });

  it("counts one turn's checks together exactly, across replicas: each bucket allows its limit and no more", async () => {
    const { now } = clockAt('2026-11-23T12:10:05Z');
    const replicas = [new RateLimiter(redis, prefix, { clock: now }), new RateLimiter(redis, prefix, { clock: now })];
    const checks = Array.from({ length: 60 }, (_, i) =>
      replicas[i % 2]!.check(i % 3 === 0 ? 'batch_small' : 'batch_large', i % 3 === 0 ? 7 : 30),
    );
    const decisions = await Promise.all(checks);
    const of = (limit: number) => decisions.filter((decision) => decision.limit === limit);
    expect(of(7).filter((decision) => decision.allowed)).toHaveLength(7);
    expect(of(30).filter((decision) => decision.allowed)).toHaveLength(30);
    // Each allowed check saw its own count: the remainders are every value from limit - 1 down to 0.
    const remainders = (limit: number) =>
      of(limit)
        .filter((decision) => decision.allowed)
        .map((decision) => decision.remaining);
    expect(remainders(7).sort((a, b) => b - a)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(remainders(30).sort((a, b) => b - a)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    expect(decisions.every((decision) => decision.resetSeconds === 55)).toBe(true);
    // One hash slot for every key a script touches (Redis Cluster runs a script only within one slot).
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.startsWith(`${prefix}{rl}:`) && key.indexOf('{') === key.lastIndexOf('{'))).toBe(true);
    // The refused checks did not count.
    const minute = Math.floor(Date.parse('2026-11-23T12:10:00Z') / 1000);
    expect(await redis.get(`${prefix}{rl}:batch_small:m:${minute}`)).toBe('7');
    expect(await redis.get(`${prefix}{rl}:batch_large:m:${minute}`)).toBe('30');
  });

  // These tests pause Redis, kill its clients, flush its scripts or kill the server: on a
  // redis-server of their own, never the shared one.
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

    it('loads its script again after Redis forgot it', async () => {
      const limiter = new RateLimiter(hotPath, prefix);
      expect((await limiter.check('key_flush', 5)).allowed).toBe(true);
      await admin.scriptFlush();
      expect((await limiter.check('key_flush', 5)).allowed).toBe(true);
      expect(limiter.isDegraded).toBe(false);
    });

    it('counts locally when Redis does not answer within the deadline, without waiting for it again', async () => {
      const { now } = clockAt('2026-11-23T12:05:10Z');
      // Deadline and pause leave a loaded machine room: the first check must reach Redis in time, and the
      // pause must outlast the checks counted locally.
      const limiter = new RateLimiter(hotPath, prefix, { deadlineMs: 300, clock: now, probeIntervalMs: 50 });
      expect((await limiter.check('key_slow', 5)).allowed).toBe(true);
      await admin.sendCommand(['CLIENT', 'PAUSE', '2500', 'WRITE']);
      const started = performance.now();
      expect(await limiter.check('key_slow', 5)).toMatchObject({ allowed: true, limit: 5, remaining: 4, resetSeconds: 50 });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(limiter.isDegraded).toBe(true);
      const next = performance.now();
      for (let i = 0; i < 4; i++) expect((await limiter.check('key_slow', 5)).allowed).toBe(true);
      expect(await limiter.check('key_slow', 5)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 50 });
      // Waiting for Redis again would take five deadlines (1.5 s); a loaded machine still stays well under.
      expect(performance.now() - next).toBeLessThan(1_000);
      // Back: the 5 counted locally join Redis's count (the first, and the check that timed out, which
      // Redis ran once it woke), so the minute is spent there too.
      await expect.poll(() => stillDegraded(limiter, 'key_slow', 5), { timeout: 6_000 }).toBe(false);
      expect(await limiter.check('key_slow', 5)).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
      const minute = Math.floor(Date.parse('2026-11-23T12:05:00Z') / 1000);
      expect(await admin.get(`${prefix}{rl}:key_slow:m:${minute}`)).toBe('7');
    });

    it('counts locally at once while disconnected, and on Redis again once reconnected', async () => {
      const { now } = clockAt('2026-11-23T12:10:10Z');
      const limiter = new RateLimiter(hotPath, prefix, { deadlineMs: 10_000, clock: now, probeIntervalMs: 50 });
      expect((await limiter.check('key_gone', 5)).allowed).toBe(true);
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(await hotPath.clientId())]);
      const started = performance.now();
      expect((await limiter.check('key_gone', 5)).allowed).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect.poll(() => hotPath.isReady).toBe(true);
      await expect.poll(() => stillDegraded(limiter, 'key_gone', 5), { timeout: 3_000 }).toBe(false);
      expect(await limiter.check('key_gone', 5)).toMatchObject({ allowed: true, limit: 5 });
    });
  });

  describe('while its redis-server is killed', () => {
    let server: OwnRedisServer;
    let client: RedisClient;
    beforeAll(async () => {
      server = await startOwnRedisServer();
      client = await connectRedis(server.url, () => {}, { callerBoundsWaits: true });
    });
    afterAll(async () => {
      client.destroy();
      await server.stop();
    });

    it("allows each of N replicas a share of limit/N a minute, answers 429 beyond it, and uses Redis's count again after the restart", async () => {
      const { clock, now } = clockAt('2026-11-23T13:00:15Z');
      const limiter = new RateLimiter(client, prefix, { clock: now, replicas: 3, probeIntervalMs: 50 });
      expect(await limiter.check('key_kill', 30)).toMatchObject({ allowed: true, limit: 30, remaining: 29 });
      await server.kill();
      // A share of 30 / 3 = 10 for this replica.
      for (let i = 1; i <= 10; i++) {
        expect(await limiter.check('key_kill', 30)).toMatchObject({ allowed: true, limit: 10, remaining: 10 - i, resetSeconds: 45 });
      }
      expect(await limiter.check('key_kill', 30)).toMatchObject({ allowed: false, limit: 10, remaining: 0, retryAfterSeconds: 45 });
      // The next minute opens a fresh local window.
      clock.ms += 60_000;
      expect(await limiter.check('key_kill', 30)).toMatchObject({ allowed: true, limit: 10, remaining: 9 });

      await server.start();
      await expect.poll(() => stillDegraded(limiter, 'key_kill', 30), { timeout: 10_000 }).toBe(false);
      // The new server starts empty; the local counts of this minute were added to it.
      const decision = await limiter.check('key_kill', 30);
      expect(decision).toMatchObject({ allowed: true, limit: 30 });
      const minute = Math.floor((clock.ms - (clock.ms % 60_000)) / 1000);
      expect(Number(await client.get(`${prefix}{rl}:key_kill:m:${minute}`))).toBe(30 - decision.remaining);
    });

    it('with a share of zero (a limit below the replica count) refuses everything while Redis is gone', async () => {
      const { now } = clockAt('2026-11-23T14:00:15Z');
      const limiter = new RateLimiter(client, prefix, { clock: now, replicas: 4, probeIntervalMs: 60_000 });
      await server.kill();
      expect(await limiter.check('key_tiny', 3)).toMatchObject({ allowed: false, limit: 0 });
      await server.start();
    });
  });

  it('holds test keys to 60 a minute and 5,000 a day whatever their configured rate', () => {
    expect(limitsFor({ environment: 'test', rate_limit_per_min: 10_000 })).toEqual({ perMinute: 60, perDay: 5_000 });
    expect(limitsFor({ environment: 'test', rate_limit_per_min: 10 })).toEqual({ perMinute: 60, perDay: TEST_KEY_LIMITS.perDay });
    expect(limitsFor({ environment: 'live', rate_limit_per_min: 10_000 })).toEqual({ perMinute: 10_000, perDay: null });
  });
});
