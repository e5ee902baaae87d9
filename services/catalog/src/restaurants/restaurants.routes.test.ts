import { describe, expect, it } from 'vitest';
import type { RestaurantRow } from '@partner/db';
import { keyPrincipalFor } from '@partner/testing';
import { expectError, expectGuarded, useAppHarness } from '../testing/app-harness.js';
import { usageCounters, seedIntegrator, seedRestaurant } from '../testing/factories.js';

const h = useAppHarness();
const PATH = '/v1/partner/restaurants';

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
const byId = (rows: RestaurantRow[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('GET /v1/partner/restaurants', () => {
  it('lets only the gateway in', async () => {
    const { owner } = await seedRestaurant(h.deps.db);
    await expectGuarded(h, 'get', PATH, keyPrincipalFor(owner));
  });

  it('gives a restaurant key its own restaurant only, and counts no quota', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db, { public_menu_url: 'https://prova.example/menu', currency: 'CHF' });
    await seedRestaurant(h.deps.db);
    const res = await h.get(PATH, keyPrincipalFor(owner)).expect(200);
    expect(res.body).toEqual({
      data: [
        {
          id: restaurant.id,
          name: 'Osteria Prova',
          slug: restaurant.slug,
          currency: 'CHF',
          publicMenuUrl: 'https://prova.example/menu',
          createdAt: restaurant.created_at.toISOString(),
          updatedAt: restaurant.updated_at.toISOString(),
        },
      ],
      meta: { nextCursor: null },
    });
    expect(await usageCounters(h.deps.db, restaurant.id)).toEqual([]);
  });

  it('refuses a restaurant key whose subscription lapsed', async () => {
    const { owner } = await seedRestaurant(h.deps.db, { subscription_status: 'lapsed' });
    expectError(await h.get(PATH, keyPrincipalFor(owner)), 403, 'subscription_inactive');
  });

  it('gives an integrator key the restaurants whose active grant includes menu:read, in id order', async () => {
    const granted = [(await seedRestaurant(h.deps.db)).restaurant, (await seedRestaurant(h.deps.db)).restaurant];
    const revoked = (await seedRestaurant(h.deps.db)).restaurant;
    const assetsOnly = (await seedRestaurant(h.deps.db)).restaurant;
    await seedRestaurant(h.deps.db);
    const integrator = await seedIntegrator(h.deps.db, [
      { restaurantId: granted[0]!.id },
      { restaurantId: granted[1]!.id, scopes: ['menu:read'] },
      { restaurantId: revoked.id, status: 'revoked' },
      { restaurantId: assetsOnly.id, scopes: ['assets:read'] },
    ]);
    const res = await h.get(PATH, keyPrincipalFor(integrator)).expect(200);
    expect(ids(res.body.data)).toEqual(ids(byId(granted)));
    expect(res.body.meta).toEqual({ nextCursor: null });
  });

  it('pages with cursors until every restaurant was seen once', async () => {
    const restaurants = await Promise.all([1, 2, 3].map(async () => (await seedRestaurant(h.deps.db)).restaurant));
    const integrator = keyPrincipalFor(
      await seedIntegrator(
        h.deps.db,
        restaurants.map((r) => ({ restaurantId: r.id })),
      ),
    );

    const first = await h.get(`${PATH}?limit=2`, integrator).expect(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta.nextCursor).toEqual(expect.any(String));
    const second = await h.get(`${PATH}?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`, integrator).expect(200);
    expect(second.body.meta).toEqual({ nextCursor: null });
    expect([...ids(first.body.data), ...ids(second.body.data)]).toEqual(ids(byId(restaurants)));
  });

  it("refuses another owner's cursor and a tampered one as invalid_cursor", async () => {
    const restaurants = await Promise.all([1, 2].map(async () => (await seedRestaurant(h.deps.db)).restaurant));
    const grants = restaurants.map((r) => ({ restaurantId: r.id }));
    const mine = keyPrincipalFor(await seedIntegrator(h.deps.db, grants));
    const theirs = keyPrincipalFor(await seedIntegrator(h.deps.db, grants));
    const cursor: string = (await h.get(`${PATH}?limit=1`, theirs).expect(200)).body.meta.nextCursor;

    expectError(await h.get(`${PATH}?limit=1&cursor=${encodeURIComponent(cursor)}`, mine), 400, 'invalid_cursor', 'cursor');
    const tampered = `${cursor.split('.')[0]}.${'A'.repeat(43)}`;
    expectError(await h.get(`${PATH}?limit=1&cursor=${encodeURIComponent(tampered)}`, theirs), 400, 'invalid_cursor', 'cursor');
    await h.get(`${PATH}?limit=1&cursor=${encodeURIComponent(cursor)}`, theirs).expect(200);
  });

  it('refuses unknown query parameters and a limit out of bounds', async () => {
    const { owner } = await seedRestaurant(h.deps.db);
    expectError(await h.get(`${PATH}?page=2`, keyPrincipalFor(owner)), 400, 'invalid_request', 'page');
    expectError(await h.get(`${PATH}?limit=0`, keyPrincipalFor(owner)), 400, 'invalid_request', 'limit');
  });
});
