import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRestaurant, zList } from '@partner/contracts';
import { expectError } from './expect-error.js';
import { grantAccess, integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const list = (auth: Record<string, string>, query: Record<string, string> = {}) =>
  request(stack.gatewayUrl).get('/v1/partner/restaurants').query(query).set(auth);

describe('GET /v1/partner/restaurants', () => {
  it('a restaurant key lists exactly its own restaurant', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    await restaurantWithKey(stack); // someone else's
    const res = await list(auth);
    expect(res.status).toBe(200);
    const body = zList(ZRestaurant).parse(res.body);
    expect(body.data.map((r) => r.id)).toEqual([restaurant.id]);
    expect(body.data[0]).toMatchObject({ name: restaurant.name, slug: restaurant.slug, currency: 'EUR' });
    expect(body.meta.nextCursor).toBeNull();
  });

  it('an integrator key lists the granted restaurants, page by page, and loses one when its grant is revoked', async () => {
    const integrator = await integratorWithKey(stack);
    const granted = [];
    for (let i = 0; i < 5; i++) {
      const { restaurant } = await restaurantWithKey(stack);
      granted.push({ restaurant, grant: await grantAccess(stack, integrator.org.id, restaurant.id) });
    }
    await restaurantWithKey(stack); // not granted

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(integrator.auth, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      const body = zList(ZRestaurant).parse(res.body);
      seen.push(...body.data.map((r) => r.id));
      cursor = body.meta.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(granted.map((g) => g.restaurant.id).sort());

    await stack.console.revokeGrant(granted[0]!.grant.id);
    const after = zList(ZRestaurant).parse((await list(integrator.auth, { limit: '100' })).body);
    expect(after.data.map((r) => r.id)).not.toContain(granted[0]!.restaurant.id);
    expect(after.data).toHaveLength(4);
  });

  it('an integrator without grants gets an empty list', async () => {
    const { auth } = await integratorWithKey(stack);
    expect((await list(auth)).body).toEqual({ data: [], meta: { nextCursor: null } });
  });

  it('a lapsed subscription or add-on is 403 subscription_inactive, for live and test keys alike', async () => {
    for (const environment of ['live', 'test'] as const) {
      const { restaurant, auth } = await restaurantWithKey(stack, { environment });
      await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
      expectError(await list(auth), 403, 'subscription_inactive');
      await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'active', partnerApiAddon: false });
      expectError(await list(auth), 403, 'subscription_inactive');
      await stack.console.updateRestaurant(restaurant.id, { partnerApiAddon: true });
      expect((await list(auth)).status).toBe(200);
    }
  });

  describe('bad input', () => {
    it.each([['0'], ['-1'], ['abc'], ['1.5'], ['1001'], ['99999999999'], ['']])(
      'limit=%s is 400 invalid_request naming limit',
      async (limit) => {
        const { auth } = await restaurantWithKey(stack);
        const res = await list(auth, { limit });
        expectError(res, 400, 'invalid_request');
        expect(res.body.error.param).toBe('limit');
      },
    );

    it('a repeated parameter is 400 invalid_request', async () => {
      const { auth } = await restaurantWithKey(stack);
      expectError(await request(stack.gatewayUrl).get('/v1/partner/restaurants?limit=1&limit=2').set(auth), 400, 'invalid_request');
    });

    it('an unknown parameter is 400 invalid_request naming it', async () => {
      const { auth } = await restaurantWithKey(stack);
      const res = await list(auth, { sort: 'name' });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.param).toBe('sort');
    });

    it.each([
      ['garbage', 'garbage'],
      ['two parts, no valid signature', 'a.b'],
      ['a JSON body with a short signature', 'e30.AAAA'],
      ['a lone dot', '.'],
      ['3,000 characters', 'x'.repeat(3000)],
    ])('%s is 400 invalid_cursor', async (_name, cursor) => {
      const { auth } = await restaurantWithKey(stack);
      expectError(await list(auth, { cursor }), 400, 'invalid_cursor');
    });

    it("a tampered cursor and another key owner's cursor are 400 invalid_cursor", async () => {
      const integrator = await integratorWithKey(stack);
      for (let i = 0; i < 2; i++) await grantAccess(stack, integrator.org.id, (await restaurantWithKey(stack)).restaurant.id);
      const cursor = (await list(integrator.auth, { limit: '1' })).body.meta.nextCursor as string;
      expect(cursor).toBeTruthy();
      const [body, mac] = cursor.split('.') as [string, string];
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
      const tampered = `${Buffer.from(JSON.stringify({ ...payload, a: 'rst_0' })).toString('base64url')}.${mac}`;
      expectError(await list(integrator.auth, { cursor: tampered }), 400, 'invalid_cursor');

      const other = await integratorWithKey(stack);
      expectError(await list(other.auth, { cursor }), 400, 'invalid_cursor');
    });
  });
});
