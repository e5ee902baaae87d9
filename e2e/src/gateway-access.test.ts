import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

// No key, key types, scopes, origins and another owner's resources are checked on every route of the
// gateway's table in route-checks.test.ts; these are the rules around them.
describe('scopes and key types', () => {
  it('a secret key with no scopes still reads /me', async () => {
    const { auth } = await restaurantWithKey(stack, { scopes: [] });
    expect((await request(stack.gatewayUrl).get('/v1/partner/me').set(auth)).status).toBe(200);
  });

  it('a secret key reaches the embed routes only with concierge:chat', async () => {
    const path = '/v1/partner/embed/restaurants/rst_x/concierge';
    const without = await restaurantWithKey(stack, { scopes: ['menu:read'] });
    expectError(await request(stack.gatewayUrl).get(path).set(without.auth), 403, 'forbidden_scope');
    const withScope = await restaurantWithKey(stack, { scopes: ['concierge:chat'] });
    const res = await request(stack.gatewayUrl).get(path).set(withScope.auth);
    // Past the gateway: the concierge answers, and an unknown restaurant is simply not servable.
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { enabled: false } });
  });
});

describe('publishable keys and origins', () => {
  const embed = '/v1/partner/embed/restaurants/rst_x/concierge';
  const origins = ['https://www.example.com', 'https://*.shop.example', 'http://localhost:5173'];

  it.each([
    ['an exact origin', 'https://www.example.com'],
    ['a subdomain under a wildcard', 'https://a.shop.example'],
    ['a deeper subdomain under a wildcard', 'https://a.b.shop.example'],
    ['an exact origin with a port', 'http://localhost:5173'],
  ])('allows %s', async (_name, origin) => {
    const { auth } = await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: origins });
    const res = await request(stack.gatewayUrl).get(embed).set(auth).set('Origin', origin);
    // Past the gateway: the concierge answers that an unknown restaurant is not servable.
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { data: { enabled: false } } });
    expect(res.headers['access-control-allow-origin']).toBe(origin);
  });

  it.each([
    ['no Origin', null],
    ['Origin: null', 'null'],
    ['an unlisted origin', 'https://evil.example'],
    ['the bare wildcard domain', 'https://shop.example'],
    ['a look-alike suffix', 'https://shop.example.evil.com'],
    ['a look-alike prefix', 'https://evilshop.example'],
    ['another scheme under a wildcard', 'http://a.shop.example'],
    ['another port under a wildcard', 'https://a.shop.example:8443'],
    ['another scheme for an exact origin', 'http://www.example.com'],
    ['another port for an exact origin', 'http://localhost:5174'],
    ['an origin with a path', 'https://www.example.com/page'],
  ])('refuses %s', async (_name, origin) => {
    const { auth } = await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: origins });
    const req = request(stack.gatewayUrl).get(embed).set(auth);
    if (origin) req.set('Origin', origin);
    expectError(await req, 403, 'origin_not_allowed');
  });

  it('answers a CORS preflight without credentials', async () => {
    const res = await request(stack.gatewayUrl)
      .options('/v1/partner/embed/restaurants/rst_x/concierge/chat')
      .set('Origin', 'https://www.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://www.example.com');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('authorization');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('does not answer preflights for secret-key routes', async () => {
    const res = await request(stack.gatewayUrl).options('/v1/partner/restaurants').set('Origin', 'https://www.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.status).toBe(401);
  });

  it('exposes the rate-limit and request-id headers to the embedding page', async () => {
    const { auth } = await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: origins });
    const res = await request(stack.gatewayUrl).get(embed).set(auth).set('Origin', 'https://www.example.com');
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
  });
});

describe('suspension', () => {
  it('a suspended restaurant account answers 403 account_suspended and works again when lifted', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    expect((await request(stack.gatewayUrl).get('/v1/partner/me').set(auth)).status).toBe(200);
    await stack.console.updateRestaurant(restaurant.id, { suspended: true });
    // Replicas learn of it over pub/sub: within a second, not necessarily before the next request.
    const list = () => request(stack.gatewayUrl).get('/v1/partner/restaurants').set(auth);
    await expect.poll(async () => (await list()).status, { timeout: 1000, interval: 10 }).toBe(403);
    const res = await list();
    expectError(res, 403, 'account_suspended');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    await stack.console.updateRestaurant(restaurant.id, { suspended: false });
    await expect.poll(async () => (await list()).status, { timeout: 1000, interval: 10 }).toBe(200);
  });

  it('a suspended integrator answers 403 account_suspended and works again when lifted', async () => {
    const { org, auth } = await integratorWithKey(stack);
    await stack.console.updateIntegrator(org.id, { suspended: true });
    const me = () => request(stack.gatewayUrl).get('/v1/partner/me').set(auth);
    await expect.poll(async () => (await me()).status, { timeout: 1000, interval: 10 }).toBe(403);
    expectError(await me(), 403, 'account_suspended');
    await stack.console.updateIntegrator(org.id, { suspended: false });
    await expect.poll(async () => (await me()).status, { timeout: 1000, interval: 10 }).toBe(200);
  });
});
