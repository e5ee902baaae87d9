import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLog } from '@partner/http';
import { createApp } from './app.js';
import { type GatewayHarness, startGatewayHarness } from './testing/app-harness.js';

let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(() => harness.close());

/** The gateway's app with an access log whose lines the test reads; `successSample` as configured. */
function appWithAccessLog(successSample: number) {
  const lines: Record<string, unknown>[] = [];
  const sink = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  return { app: createApp({ ...harness.deps, accessLog: new AccessLog(sink, 'gateway', successSample) }), lines };
}

describe('the access log', () => {
  it('writes one line per request: id, route template, status, duration, the key’s id, owner and restaurant, never the key', async () => {
    const { app, lines } = appWithAccessLog(1);
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant, { scopes: ['menu:read'] });
    const res = await request(app).get(`/v1/partner/restaurants/${restaurant.id}/items`).set(key.auth);
    await request(app).get('/v1/partner/restaurants').set('Authorization', 'Bearer nonsense').expect(401);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      service: 'gateway',
      requestId: res.headers['x-request-id'],
      method: 'GET',
      route: '/v1/partner/restaurants/:id/items',
      status: res.status,
      keyId: key.row.id,
      owner: `restaurant:${restaurant.id}`,
      restaurantId: restaurant.id,
    });
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    // A refused key: the line says so, with no key id to give.
    expect(lines[1]).toMatchObject({ route: '/v1/partner/restaurants', status: 401 });
    expect(lines[1]).not.toHaveProperty('keyId');
    expect(JSON.stringify(lines)).not.toContain(key.value);
    expect(JSON.stringify(lines)).not.toContain('nonsense');
  });

  it('names an integrator as the owner, and samples successful lines but never errors', async () => {
    const { app, lines } = appWithAccessLog(0);
    const integrator = await harness.integrator();
    const key = await harness.issueKey(integrator, { scopes: ['menu:read'] });
    await request(app).get('/v1/partner/restaurants').set(key.auth).expect(200);
    await request(app).get('/v1/partner/nothing').set(key.auth).expect(404);
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ route: 'unmatched', status: 404, keyId: key.row.id, owner: `integrator:${integrator.id}` });
    expect(lines[0]).not.toHaveProperty('restaurantId');
  });
});
