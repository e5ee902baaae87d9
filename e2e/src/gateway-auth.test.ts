import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@partner/auth';
import { ZKeyMetadata, zData } from '@partner/contracts';
import { expectError } from './expect-error.js';
import { integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
/** How far the gateways' clock runs ahead of the real one (a key's expiry is the gateway's to judge). */
let clockAheadMs = 0;
beforeAll(async () => {
  stack = await startStack({ gatewayClock: () => new Date(Date.now() + clockAheadMs) });
});
afterAll(() => stack.stop());

describe('GET /v1/partner/me', () => {
  it('describes a restaurant key, with every header the spec promises', async () => {
    const { restaurant, key, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 120 });
    const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
    expect(res.status).toBe(200);
    const { data } = zData(ZKeyMetadata).parse(res.body);
    expect(data).toEqual({
      keyId: key.id,
      type: 'SECRET',
      environment: 'LIVE',
      name: 'test key',
      scopes: ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'],
      rateLimitPerMin: 120,
      restaurant: { id: restaurant.id, name: restaurant.name, slug: restaurant.slug },
      integratorOrg: null,
      docsUrl: expect.any(String),
    });
    expect(res.headers['x-service-environment']).toBe('live');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.headers['x-ratelimit-limit']).toBe('120');
    expect(res.headers['x-ratelimit-remaining']).toBe('119');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('describes an integrator key and a test key capped at 60 a minute', async () => {
    const { org, auth } = await integratorWithKey(stack, { scopes: ['menu:read'] });
    const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
    expect(res.body.data).toMatchObject({ restaurant: null, integratorOrg: { id: org.id, slug: org.slug }, scopes: ['menu:read'] });

    const test = await restaurantWithKey(stack, { environment: 'test', rateLimitPerMin: 5000 });
    const testRes = await request(stack.gatewayUrl).get('/v1/partner/me').set(test.auth);
    expect(testRes.body.data).toMatchObject({ environment: 'TEST', rateLimitPerMin: 60 });
    expect(testRes.headers['x-service-environment']).toBe('test');
    expect(testRes.headers['x-ratelimit-limit']).toBe('60');
  });
});

describe('invalid keys are all 401 invalid_api_key', () => {
  const wellFormedButUnknown = generateApiKey('secret', 'live').value;
  const valid = generateApiKey('secret', 'test').value;
  const badChecksum = valid.slice(0, -1) + (valid.endsWith('A') ? 'B' : 'A');
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['no scheme', { Authorization: wellFormedButUnknown }],
    ['the Basic scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['an empty token', { Authorization: 'Bearer ' }],
    ['Bearer alone', { Authorization: 'Bearer' }],
    ['two tokens', { Authorization: `Bearer ${wellFormedButUnknown} extra` }],
    ['a wrong prefix', { Authorization: `Bearer ${wellFormedButUnknown.replace('svc_sk_', 'svc_xx_')}` }],
    ["another vendor's key", { Authorization: 'Bearer sk_live_51HqJx2eZvKYlo2C0000000000' }],
    ['a wrong checksum', { Authorization: `Bearer ${badChecksum}` }],
    ['a right-shaped key that does not exist', { Authorization: `Bearer ${wellFormedButUnknown}` }],
    ['a very long token', { Authorization: `Bearer ${'a'.repeat(4000)}` }],
  ];
  it.each(cases)('%s', async (_name, headers) => {
    const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(headers);
    expectError(res, 401, 'invalid_api_key');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(['live', 'test']).toContain(res.headers['x-service-environment']);
  });

  it('a revoked key', async () => {
    const { key, auth } = await restaurantWithKey(stack);
    expect((await request(stack.gatewayUrl).get('/v1/partner/me').set(auth)).status).toBe(200);
    await stack.console.revokeKey(key.id);
    await expect.poll(async () => (await request(stack.gatewayUrl).get('/v1/partner/me').set(auth)).status, { timeout: 1000 }).toBe(401);
    expectError(await request(stack.gatewayUrl).get('/v1/partner/me').set(auth), 401, 'invalid_api_key');
  });

  it('an expired key', async () => {
    const { key, auth } = await restaurantWithKey(stack, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await request(stack.gatewayUrl).get('/v1/partner/me').set(auth)).status).toBe(200);
    clockAheadMs = 61_000;
    try {
      // The key is in the gateway's cache by now: its expiry is checked on every request, not only on a miss.
      const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
      expectError(res, 401, 'invalid_api_key');
    } finally {
      clockAheadMs = 0;
    }
    expect(key.expiresAt).not.toBeNull();
  });

  it('the environment header follows the prefix of a refused test key', async () => {
    const res = await request(stack.gatewayUrl)
      .get('/v1/partner/me')
      .set({ Authorization: `Bearer ${generateApiKey('secret', 'test').value}` });
    expect(res.headers['x-service-environment']).toBe('test');
  });
});
