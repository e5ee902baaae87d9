import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedisServer, type OwnRedisServer } from '@partner/testing';
import { TEST_KEY_LIMITS } from '@partner/auth';
import { expectError, type GatewayHarness, startGatewayHarness } from './testing/app-harness.js';

// Issue 15: a gateway whose Redis is killed degrades to per-replica shares of every limit instead of
// answering 503, returns to Redis's counts once it is back, and test keys' daily caps survive the
// restart. The gateway runs on a redis-server of this file's own, which it kills.
let redis: OwnRedisServer;
let harness: GatewayHarness;
beforeAll(async () => {
  redis = await startOwnRedisServer();
  harness = await startGatewayHarness({ REDIS_URL: redis.url, GATEWAY_REPLICAS: '2' });
});
afterAll(async () => {
  await harness.close();
  await redis.stop();
});

const me = (auth: Record<string, string>) => request(harness.app).get('/v1/partner/me').set(auth);

/** Requests until one is counted on Redis again (its limit is the key's whole limit, not a share). */
async function untilCountedOnRedis(auth: Record<string, string>, limit: number) {
  let last: request.Response | undefined;
  await expect
    .poll(
      async () => {
        last = await me(auth);
        return last.headers['x-ratelimit-limit'];
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(String(limit));
  return last!;
}

describe('with its Redis killed', () => {
  it('answers within this replica’s share of the key’s limit (limit / GATEWAY_REPLICAS), 429 beyond, then counts on Redis again', async () => {
    harness.pinClockInMinute(10);
    const key = await harness.issueKey(await harness.restaurant(), { rateLimitPerMin: 10 });
    const first = await me(key.auth);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' });

    await redis.kill();
    for (let i = 1; i <= 5; i++) {
      const res = await me(key.auth);
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(5 - i), 'x-ratelimit-reset': '50' });
    }
    const refused = await me(key.auth);
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('50');

    await redis.start();
    // The new server starts empty (the 1 counted before the kill died with the old one); it got the 5
    // counted here, then this one.
    const back = await untilCountedOnRedis(key.auth, 10);
    expect(back.status).toBe(200);
    expect(back.headers['x-ratelimit-remaining']).toBe('4');
    harness.unpinClock();
  });

  it('counts per-address limits in shares too (public routes keep answering)', async () => {
    const harness2 = await startGatewayHarness({ REDIS_URL: redis.url, GATEWAY_REPLICAS: '2', CLIENT_PER_MIN: '6' });
    const page = () => request(harness2.app).get('/menu/rst_anything0000000000000000');
    try {
      harness2.pinClockInMinute(20);
      await redis.kill();
      for (let i = 0; i < 3; i++) expect((await page()).status).toBe(200);
      expectError(await page(), 429, 'rate_limited');
    } finally {
      await redis.start();
      await expect
        .poll(
          async () => {
            await page();
            return harness2.deps.rateLimiter.isDegraded;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(false);
      await harness2.close();
    }
  });

  it("keeps a test key's daily count through a Redis restart", async () => {
    harness.pinClockInMinute(30);
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant, { environment: 'test' });
    for (let i = 0; i < 3; i++) expect((await me(key.auth)).status).toBe(200);
    const day = Math.floor(harness.deps.now().getTime() / 86_400_000);
    const counts = () =>
      harness.db
        .selectFrom('gateway_daily_counts')
        .select(['bucket', 'requests'])
        .where('day', '=', day)
        .where('bucket', 'in', [`key:${key.row.id}`, `test-owner:${restaurant.id}`])
        .orderBy('bucket')
        .execute();
    expect(await counts()).toEqual([
      { bucket: `key:${key.row.id}`, requests: 3 },
      { bucket: `test-owner:${restaurant.id}`, requests: 3 },
    ]);

    await redis.kill();
    await redis.start();
    await untilCountedOnRedis(key.auth, TEST_KEY_LIMITS.perMinute);
    const counted = (await counts()).map((row) => row.requests);
    expect(counted[0]).toBeGreaterThanOrEqual(4);

    // The key's day nearly spent: one more, then 429 until midnight UTC, through another restart.
    await harness.db
      .updateTable('gateway_daily_counts')
      .set({ requests: TEST_KEY_LIMITS.perDay - 1 })
      .where('bucket', '=', `key:${key.row.id}`)
      .where('day', '=', day)
      .execute();
    harness.pinClockInMinute(40); // a fresh minute: only the day can refuse
    expect((await me(key.auth)).status).toBe(200);
    const refused = await me(key.auth);
    expectError(refused, 429, 'rate_limited');
    const sec = Math.floor(harness.deps.now().getTime() / 1000);
    expect(Number(refused.headers['retry-after'])).toBe((day + 1) * 86_400 - sec);
    await redis.kill();
    await redis.start();
    expectError(await untilCountedOnRedis(key.auth, TEST_KEY_LIMITS.perMinute), 429, 'rate_limited');
    harness.unpinClock();
  });
});
