import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, VISITOR_HEADER } from '@partner/auth';
import { createApp } from './app.js';
import { clientGroupOf, visitorOf } from './rate-limit/client-limits.js';
import { TEST_TRAFFIC_PER_OWNER_PER_DAY } from './rate-limit/rate-limiter.js';
import { expectError, type GatewayHarness, type Owner, startGatewayHarness } from './testing/app-harness.js';

// The publishable key is printed in public pages and its Origin can be forged by any script: its
// concierge requests are limited per visitor (client address) and per restaurant, on Redis.

const ORIGIN = 'https://shop.example.com';
let harness: GatewayHarness;
beforeAll(async () => {
  // One proxy (a load balancer) in front: the client is the last X-Forwarded-For entry.
  harness = await startGatewayHarness({
    TRUST_PROXY_HOPS: '1',
    EMBED_VISITOR_PER_MIN: '3',
    EMBED_RESTAURANT_PER_MIN: '5',
    CLIENT_PER_MIN: '4',
  });
});
afterAll(() => harness.close());
afterEach(() => harness.unpinClock());

async function publicKeyOf(owner: Owner) {
  const key = await harness.issueKey(owner, { type: 'publishable', allowedOrigins: [ORIGIN], rateLimitPerMin: 1_000 });
  return { ...key.auth, Origin: ORIGIN };
}

const chat = (app: Parameters<typeof request>[0], restaurantId: string, headers: Record<string, string>, clientAddress: string) =>
  request(app)
    .post(`/v1/partner/embed/restaurants/${restaurantId}/concierge/chat`)
    .set({ ...headers, 'X-Forwarded-For': clientAddress })
    .send({ message: 'hi' });

describe('a publishable key on the concierge routes', () => {
  it('is refused with 429 rate_limited and Retry-After past the per-visitor limit, whatever Origin it sends', async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const headers = await publicKeyOf(restaurant);
    for (let i = 0; i < 3; i++) expect((await chat(harness.app, restaurant.id, headers, '198.51.100.7')).status).toBe(200);
    harness.upstream.take();
    const refused = await chat(harness.app, restaurant.id, headers, '198.51.100.7');
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('40');
    expect(harness.upstream.take()).toEqual([]);
    // Bootstrap counts too: it is the same visitor.
    expectError(
      await request(harness.app)
        .get(`/v1/partner/embed/restaurants/${restaurant.id}/concierge`)
        .set({ ...headers, 'X-Forwarded-For': '198.51.100.7' }),
      429,
      'rate_limited',
    );
  });

  it('is refused past the per-restaurant limit over all visitors; another restaurant goes on', async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const headers = await publicKeyOf(restaurant);
    for (let i = 0; i < 5; i++) expect((await chat(harness.app, restaurant.id, headers, `203.0.113.${i}`)).status).toBe(200);
    expectError(await chat(harness.app, restaurant.id, headers, '203.0.113.99'), 429, 'rate_limited');
    const other = await harness.restaurant();
    expect((await chat(harness.app, other.id, await publicKeyOf(other), '203.0.113.99')).status).toBe(200);
  });

  it("counts an integrator's key per restaurant in the route: one restaurant's full bucket leaves the next one's alone", async () => {
    harness.pinClockInMinute(20);
    const integrator = await harness.integrator();
    const [first, second] = [await harness.restaurant(), await harness.restaurant()];
    const headers = await publicKeyOf(integrator);
    for (let i = 0; i < 5; i++) expect((await chat(harness.app, first.id, headers, `203.0.114.${i}`)).status).toBe(200);
    expectError(await chat(harness.app, first.id, headers, '203.0.114.99'), 429, 'rate_limited');
    // The same visitor, the same key, another restaurant: fresh buckets.
    expect((await chat(harness.app, second.id, headers, '203.0.114.0')).status).toBe(200);
    expect((await chat(harness.app, second.id, headers, '203.0.114.99')).status).toBe(200);
  });

  it("counts the route's restaurant as the service will read it (a percent-encoded id is the same restaurant)", async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const headers = await publicKeyOf(restaurant);
    const encoded = restaurant.id.replace('_', '%5F');
    for (let i = 0; i < 3; i++) expect((await chat(harness.app, restaurant.id, headers, `203.0.115.${i}`)).status).toBe(200);
    for (let i = 3; i < 5; i++) expect((await chat(harness.app, encoded, headers, `203.0.115.${i}`)).status).toBe(200);
    expectError(await chat(harness.app, encoded, headers, '203.0.115.99'), 429, 'rate_limited');
  });

  it("never lets a stranger's key fill a restaurant's bucket by naming its id", async () => {
    harness.pinClockInMinute(20);
    const [victim, stranger] = [await harness.restaurant(), await harness.restaurant()];
    const strangerKey = await publicKeyOf(stranger);
    // The service would answer 404 (no reach); the gateway counts before it knows.
    for (let i = 0; i < 6; i++) await chat(harness.app, victim.id, strangerKey, `203.0.116.${i}`);
    expect((await chat(harness.app, victim.id, await publicKeyOf(victim), '203.0.116.99')).status).toBe(200);
  });

  it('counts every address of one IPv6 /64 as one visitor (an IPv4-mapped address as the IPv4 one)', async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const headers = await publicKeyOf(restaurant);
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:0db8:0001:0002:ffff::7']) {
      expect((await chat(harness.app, restaurant.id, headers, address)).status).toBe(200);
    }
    expectError(await chat(harness.app, restaurant.id, headers, '2001:db8:1:2:1234::5678'), 429, 'rate_limited');
    // The next /64 is another visitor.
    expect((await chat(harness.app, restaurant.id, headers, '2001:db8:1:3::1')).status).toBe(200);

    // (Another restaurant, so that its own limit of 5 stays out of the way.)
    const next = await harness.restaurant();
    const nextHeaders = await publicKeyOf(next);
    for (let i = 0; i < 3; i++) expect((await chat(harness.app, next.id, nextHeaders, '198.51.100.77')).status).toBe(200);
    expectError(await chat(harness.app, next.id, nextHeaders, '::ffff:198.51.100.77'), 429, 'rate_limited');
  });

  it('names the visitor to the service by a hash of the client address, never by a header the client sent', async () => {
    const restaurant = await harness.restaurant();
    const headers = { ...(await publicKeyOf(restaurant)), [VISITOR_HEADER]: 'chosen-by-the-client' };
    harness.upstream.take();
    expect((await chat(harness.app, restaurant.id, headers, '192.0.2.44')).status).toBe(200);
    const [seen] = harness.upstream.take();
    expect(seen!.headers[VISITOR_HEADER]).toBe(visitorOf('192.0.2.44'));
  });

  it('ignores X-Forwarded-For when no proxy is trusted (the default): a client cannot pick its address', async () => {
    harness.pinClockInMinute(20);
    const direct = createApp({ ...harness.deps, trustProxyHops: 0 });
    const restaurant = await harness.restaurant();
    const headers = await publicKeyOf(restaurant);
    for (let i = 0; i < 3; i++) expect((await chat(direct, restaurant.id, headers, `198.18.0.${i}`)).status).toBe(200);
    expectError(await chat(direct, restaurant.id, headers, '198.18.0.200'), 429, 'rate_limited');
  });

  it('leaves secret keys on the embed routes to their own key limit', async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant, { scopes: ['concierge:chat'], rateLimitPerMin: 1_000 });
    harness.upstream.take();
    for (let i = 0; i < 6; i++) expect((await chat(harness.app, restaurant.id, key.auth, '198.51.100.8')).status).toBe(200);
    expect(harness.upstream.take().every((seen) => seen.headers[VISITOR_HEADER] === undefined)).toBe(true);
  });
});

describe('the client address a visitor is counted by', () => {
  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['::FFFF:c633:6407', '198.51.100.7'],
    ['0:0:0:0:0:ffff:198.51.100.7', '198.51.100.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::1.2.3.4', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
  ])('groups %s as %s', (address, group) => {
    expect(clientGroupOf(address)).toBe(group);
  });

  it('is one visitor for every address of a /64, another for the next /64, and never the address itself', () => {
    expect(visitorOf('2001:db8:1:2::1')).toBe(visitorOf('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(visitorOf('2001:db8:1:2::1')).not.toBe(visitorOf('2001:db8:1:3::1'));
    expect(visitorOf('::ffff:203.0.113.9')).toBe(visitorOf('203.0.113.9'));
    expect(visitorOf('203.0.113.9')).not.toBe(visitorOf('203.0.113.10'));
    expect(visitorOf('203.0.113.9')).not.toContain('203');
  });
});

describe('a client address before any key vouches for it', () => {
  const madeUp = () => ({ Authorization: `Bearer ${generateApiKey('secret', 'live').value}` });
  const me = (headers: Record<string, string>, clientAddress: string) =>
    request(harness.app)
      .get('/v1/partner/me')
      .set({ ...headers, 'X-Forwarded-For': clientAddress });

  it('is refused with 429 once its made-up keys (well formed, so each costs a lookup) pass the limit', async () => {
    harness.pinClockInMinute(20);
    for (let i = 0; i < 4; i++) expectError(await me(madeUp(), '198.51.100.50'), 401, 'invalid_api_key');
    const refused = await me(madeUp(), '198.51.100.50');
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('40');
    // Where the address stands, as a key's refusal says where the key stands.
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '40' });
    // Another address is not held back, and a key the gateway already knows costs no lookup.
    expectError(await me(madeUp(), '198.51.100.51'), 401, 'invalid_api_key');
  });

  it('lets a known key through from an address that is over the limit (a cached key costs no lookup)', async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant, { rateLimitPerMin: 1_000 });
    expect((await me(key.auth, '198.51.100.60')).status).toBe(200);
    for (let i = 0; i < 3; i++) await me(madeUp(), '198.51.100.60');
    expectError(await me(madeUp(), '198.51.100.60'), 429, 'rate_limited');
    expect((await me(key.auth, '198.51.100.60')).status).toBe(200);
  });

  it('counts public routes (the menu page, asset files) too', async () => {
    harness.pinClockInMinute(20);
    const page = () => request(harness.app).get('/menu/rst_anything0000000000000000').set('X-Forwarded-For', '198.51.100.70');
    for (let i = 0; i < 4; i++) {
      const res = await page();
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': String(3 - i) });
    }
    expectError(await page(), 429, 'rate_limited');
  });
});

describe('test keys', () => {
  it("share one daily cap per owner across all of that owner's test keys", async () => {
    harness.pinClockInMinute(20);
    const restaurant = await harness.restaurant();
    const [first, second] = [
      await harness.issueKey(restaurant, { environment: 'test' }),
      await harness.issueKey(restaurant, { environment: 'test' }),
    ];
    expect((await request(harness.app).get('/v1/partner/me').set(first.auth)).status).toBe(200);
    // The owner's test traffic of the day, as if it had already been made.
    const pinned = harness.deps.now().getTime() / 1000;
    await harness.db
      .updateTable('gateway_daily_counts')
      .set({ requests: TEST_TRAFFIC_PER_OWNER_PER_DAY })
      .where('bucket', '=', `test-owner:${restaurant.id}`)
      .where('day', '=', Math.floor(pinned / 86_400))
      .execute();
    const refused = await request(harness.app).get('/v1/partner/me').set(second.auth);
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBe(86_400 - (pinned % 86_400));
    const live = await harness.issueKey(restaurant, { environment: 'live' });
    expect((await request(harness.app).get('/v1/partner/me').set(live.auth)).status).toBe(200);
  });
});
