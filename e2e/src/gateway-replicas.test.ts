import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

// Both replicas on one clock that stays 20 s into the minute it started in: every count below falls
// in one rate-limit window, and no test waits for a minute to end.
const minute = Math.floor(Date.now() / 60_000) * 60_000;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ gateways: 2, gatewayClock: () => new Date(minute + 20_000) });
});
afterAll(() => stack.stop());

describe('per-key rate limit', () => {
  it('counts down, refuses with 429 rate_limited and Retry-After, and never says Retry-After otherwise', async () => {
    const { auth } = await restaurantWithKey(stack, { rateLimitPerMin: 3 });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
      expect(res.status).toBe(200);
      expect(res.headers['retry-after']).toBeUndefined();
      seen.push(res.headers['x-ratelimit-remaining']!);
    }
    expect(seen).toEqual(['2', '1', '0']);
    const refused = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.headers['x-ratelimit-reset']).toBe('40');
  });

  it('is one limit shared by every gateway replica', async () => {
    const { auth } = await restaurantWithKey(stack, { rateLimitPerMin: 10 });
    const [first, second] = stack.gatewayUrls as [string, string];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await request(i % 2 ? second : first)
            .get('/v1/partner/me')
            .set(auth)
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  });

  it('also counts requests refused further on (scope, route), which still carry the headers', async () => {
    const { auth } = await restaurantWithKey(stack, { scopes: [], rateLimitPerMin: 50 });
    const res = await request(stack.gatewayUrl).get('/v1/partner/restaurants').set(auth);
    expectError(res, 403, 'forbidden_scope');
    expect(res.headers['x-ratelimit-limit']).toBe('50');
    const notFound = await request(stack.gatewayUrl).get('/v1/partner/nowhere').set(auth);
    expectError(notFound, 404, 'not_found');
    expect(notFound.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('key cache', () => {
  it('a revocation through console reaches every replica within a second', async () => {
    const { key, auth } = await restaurantWithKey(stack);
    for (const url of stack.gatewayUrls) expect((await request(url).get('/v1/partner/me').set(auth)).status).toBe(200);
    const revokedAt = Date.now();
    await stack.console.revokeKey(key.id);
    for (const url of stack.gatewayUrls) {
      await expect.poll(async () => (await request(url).get('/v1/partner/me').set(auth)).status, { timeout: 1000, interval: 20 }).toBe(401);
    }
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });
});
