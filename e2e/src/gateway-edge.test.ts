import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
let auth: Record<string, string>;
let restaurantId: string;
beforeAll(async () => {
  stack = await startStack({ gatewayEnv: { MAX_BODY_BYTES: '1000' } });
  let restaurant;
  ({ auth, restaurant } = await restaurantWithKey(stack));
  restaurantId = restaurant.id;
});
afterAll(() => stack.stop());

describe('routing', () => {
  it('an unknown route is 404 not_found in the envelope', async () => {
    expectError(await request(stack.gatewayUrl).get('/v1/partner/nothing-here').set(auth), 404, 'not_found');
    expectError(await request(stack.gatewayUrl).get('/v1/partner/restaurants/rst_x/unknown').set(auth), 404, 'not_found');
    expectError(await request(stack.gatewayUrl).get('/v2/partner/me').set(auth), 404, 'not_found');
    expectError(await request(stack.gatewayUrl).get('/'), 404, 'not_found');
  });

  it('an unknown method on a known route is 405 with Allow', async () => {
    const res = await request(stack.gatewayUrl).delete('/v1/partner/restaurants').set(auth);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
    expectError(await request(stack.gatewayUrl).put('/v1/partner/me').set(auth), 405, 'method_not_allowed');
  });

  it('HEAD on a GET route answers its headers without a body, from the service behind it', async () => {
    const menu = await request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurantId}/menu`).set(auth);
    const head = await request(stack.gatewayUrl).head(`/v1/partner/restaurants/${restaurantId}/menu`).set(auth);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(menu.headers.etag);
    expect(head.text ?? '').toBe('');
    const page = await request(stack.gatewayUrl).head(`/menu/${restaurantId}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('every response carries X-Service-Environment and X-Request-Id', async () => {
    for (const res of [
      await request(stack.gatewayUrl).get('/'),
      await request(stack.gatewayUrl).get('/v1/partner/me'),
      await request(stack.gatewayUrl).get('/v1/partner/me').set(auth),
      await request(stack.gatewayUrl).get('/v1/partner/restaurants').set(auth),
    ]) {
      expect(res.headers['x-service-environment']).toMatch(/^(live|test)$/);
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
  });

  it('ignores a client-chosen request id', async () => {
    const res = await request(stack.gatewayUrl).get('/v1/partner/me').set(auth).set('X-Request-Id', 'req_chosenbytheclient');
    expect(res.headers['x-request-id']).not.toBe('req_chosenbytheclient');
  });
});

describe('request bodies', () => {
  const post = () => request(stack.gatewayUrl).post('/v1/partner/items/itm_x/asset-urls').set(auth);

  it('malformed JSON is 400 invalid_request', async () => {
    expectError(await post().set('Content-Type', 'application/json').send('{"formats": ['), 400, 'invalid_request');
  });

  it('a body that is not JSON is 415 unsupported_media_type', async () => {
    expectError(await post().set('Content-Type', 'text/plain').send('formats=glb'), 415, 'unsupported_media_type');
    expectError(await post().set('Content-Type', 'application/x-www-form-urlencoded').send('a=b'), 415, 'unsupported_media_type');
  });

  it('a body over the limit is 413 payload_too_large', async () => {
    const big = JSON.stringify({ formats: ['glb'], padding: 'x'.repeat(2000) });
    expectError(await post().set('Content-Type', 'application/json').send(big), 413, 'payload_too_large');
  });
});

describe('services behind the gateway', () => {
  it.each(['catalog', 'webhooks', 'concierge'] as const)(
    '%s answers health checks and refuses requests without the internal token',
    async (name) => {
      const url = stack.serviceUrls[name];
      expect((await request(url).get('/healthz')).status).toBe(200);
      expectError(await request(url).get('/v1/partner/restaurants').set(auth), 401, 'unauthorized');
      expectError(await request(url).get('/v1/partner/restaurants').set('X-Internal-Token', 'forged.jwt.token'), 401, 'unauthorized');
    },
  );
});

describe('an unreachable service', () => {
  it('is 503 service_unavailable in the envelope', async () => {
    const down = await startStack({ gatewayEnv: { CATALOG_URL: 'http://127.0.0.1:9' } });
    try {
      const { auth: downAuth } = await restaurantWithKey(down);
      const res = await request(down.gatewayUrl).get('/v1/partner/restaurants').set(downAuth);
      expectError(res, 503, 'service_unavailable');
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    } finally {
      await down.stop();
    }
  });
});
