import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { derivePublishableKey } from '@partner/auth';
import { zData } from '@partner/contracts';
import { ZConsoleRestaurant, ZUsage } from '@partner/contracts/console';
import { billingPeriod } from '@partner/entitlements';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { lastWriterOf, menuChangeNotesOf, seedRestaurant } from '../testing/factories.js';

const h = useAppHarness();

const create = (body: Record<string, unknown>) => request(h.app).post('/console/restaurants').set(h.admin).send(body);
const patch = (id: string, body: Record<string, unknown>) => request(h.app).patch(`/console/restaurants/${id}`).set(h.admin).send(body);

describe('POST /console/restaurants', () => {
  it('creates a restaurant with the default settings, and its public menu page key', async () => {
    const res = await create({ name: 'Chez Nous', slug: 'chez-nous', houseNotes: 'Closed Mondays.', contactEmail: 'owner@chez.test' });
    expect(res.status).toBe(201);
    const restaurant = zData(ZConsoleRestaurant).parse(res.body).data;
    expect(restaurant).toMatchObject({
      name: 'Chez Nous',
      slug: 'chez-nous',
      currency: 'USD',
      publicMenuUrl: null,
      houseNotes: 'Closed Mondays.',
      contactEmail: 'owner@chez.test',
      subscriptionStatus: 'active',
      partnerApiAddon: true,
      conciergeEnabled: false,
      suspended: false,
      concierge: { displayName: 'Chez Nous', welcomeMessage: 'Hi! Ask me anything about our menu.' },
    });

    const stored = await h.deps.db.selectFrom('restaurants').selectAll().where('id', '=', restaurant.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ slug: 'chez-nous', currency: 'USD', house_notes: 'Closed Mondays.' });
    const keys = await h.deps.db.selectFrom('api_keys').selectAll().where('restaurant_id', '=', restaurant.id).execute();
    const expected = derivePublishableKey(h.deps.menuPageKeySecret, `menu-page:${restaurant.id}`, 'live');
    expect(keys).toEqual([
      expect.objectContaining({
        type: 'publishable',
        environment: 'live',
        key_hash: expected.hash,
        scopes: [],
        allowed_origins: ['https://menus.test'],
        revoked_at: null,
      }),
    ]);
  });

  it('refuses a taken slug with 409 conflict and writes nothing', async () => {
    const first = await seedRestaurant(h.deps);
    expectError(await create({ name: 'Copy', slug: first.slug }), 409, 'conflict', 'slug');
    const named = await h.deps.db.selectFrom('restaurants').select('id').where('slug', '=', first.slug).execute();
    expect(named).toHaveLength(1);
  });

  it.each([
    ['a missing name', { slug: 'no-name' }, 'name'],
    ['a slug with capitals', { name: 'X', slug: 'Chez-Nous' }, 'slug'],
    ['a currency that is not ISO 4217', { name: 'X', slug: 'x', currency: 'euro' }, 'currency'],
    ['a menu URL that is not http(s)', { name: 'X', slug: 'x', publicMenuUrl: 'ftp://menu.test' }, 'publicMenuUrl'],
    ['an unknown field', { name: 'X', slug: 'x', owner: 'me' }, 'owner'],
  ])('refuses %s with 400 invalid_request naming the field', async (_name, body, param) => {
    expectError(await create(body), 400, 'invalid_request', param);
  });
});

describe('GET /console/restaurants/:id', () => {
  it('reads a restaurant back, and 404s an unknown one', async () => {
    const restaurant = await seedRestaurant(h.deps, { name: 'Le Lu' });
    const res = await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(h.admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(restaurant);
    expectError(await request(h.app).get('/console/restaurants/rst_unknown000000').set(h.admin), 404, 'not_found');
  });
});

describe('PATCH /console/restaurants/:id', () => {
  it('changes every setting, stores it, and tells every replica', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const access = await h.subscribe('access:invalidate');
    const keys = await h.subscribe('keys:invalidate');
    const menu = await h.subscribe('menu:invalidate');
    const changes = {
      name: 'Chez Nouveau',
      publicMenuUrl: 'https://chez.test/menu',
      subscriptionStatus: 'lapsed',
      partnerApiAddon: false,
      conciergeAddon: true,
      conciergeEnabled: true,
      suspended: true,
      monthlyQuota: 50_000,
      overageBudget: 1_000,
      conciergeAllowance: 200,
      concierge: { displayName: 'Chez Bot', welcomeMessage: 'Bonjour !' },
      houseNotes: 'Closed Mondays.',
      contactEmail: 'new@chez.test',
    };
    const res = await patch(restaurant.id, changes);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(changes);
    expect((await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(h.admin)).body.data).toMatchObject(changes);
    expect(await access.drain()).toEqual([{ restaurantId: restaurant.id }]);
    expect(await keys.drain()).toEqual([{ ownerId: restaurant.id }]);
    expect(await menu.drain()).toEqual([{ restaurantId: restaurant.id }]);
  });

  it('answers an empty patch with the restaurant as it is', async () => {
    const restaurant = await seedRestaurant(h.deps);
    for (const body of [{}, { concierge: {} }]) {
      const res = await patch(restaurant.id, body);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(restaurant);
    }
  });

  it('leaves the fields it is not given as they were, and pushes key invalidations only for suspension', async () => {
    const restaurant = await seedRestaurant(h.deps, { houseNotes: 'Keep me.' });
    const keys = await h.subscribe('keys:invalidate');
    const res = await patch(restaurant.id, { monthlyQuota: 10 });
    expect(res.body.data).toMatchObject({ monthlyQuota: 10, houseNotes: 'Keep me.', name: restaurant.name, suspended: false });
    expect(await keys.drain()).toEqual([]);
    // null clears a nullable field; absent does not.
    expect((await patch(restaurant.id, { houseNotes: null })).body.data.houseNotes).toBeNull();
  });

  it('notes a menu change, and moves updatedAt, only when a field partners see changes', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const updatedAt = async () =>
      (await h.deps.db.selectFrom('restaurants').select('updated_at').where('id', '=', restaurant.id).executeTakeFirstOrThrow()).updated_at;
    const created = await updatedAt();

    // Settings partners do not see, and a name given unchanged, leave their copies of the menu as they are.
    await patch(restaurant.id, { name: restaurant.name, monthlyQuota: 10, houseNotes: 'Closed Mondays.', suspended: true }).expect(200);
    expect(await menuChangeNotesOf(h.deps.db, restaurant.id)).toEqual([]);
    expect(await updatedAt()).toEqual(created);

    await patch(restaurant.id, { name: 'Chez Nouveau' }).expect(200);
    const renamed = await updatedAt();
    expect(renamed.getTime()).toBeGreaterThan(created.getTime());
    await patch(restaurant.id, { publicMenuUrl: 'https://chez.test/menu' }).expect(200);
    expect(await menuChangeNotesOf(h.deps.db, restaurant.id)).toEqual([
      { writtenBy: expect.any(String) },
      { writtenBy: await lastWriterOf(h.deps.db, 'restaurants', restaurant.id) },
    ]);
    expect((await updatedAt()).getTime()).toBeGreaterThan(renamed.getTime());
  });

  it('switches the public menu page off and on: its key is revoked and restored, and every gateway replica is told', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const keys = await h.subscribe('keys:invalidate');
    const pageKey = derivePublishableKey(h.deps.menuPageKeySecret, `menu-page:${restaurant.id}`, h.deps.menuPageKeyEnvironment);
    const revokedAt = async () =>
      (await h.deps.db.selectFrom('api_keys').select('revoked_at').where('key_hash', '=', pageKey.hash).executeTakeFirstOrThrow())
        .revoked_at;

    expect((await patch(restaurant.id, { menuPageEnabled: false })).body.data.menuPageEnabled).toBe(false);
    expect(await revokedAt()).toBeInstanceOf(Date);
    expect(await keys.drain()).toEqual([{ ownerId: restaurant.id }]);

    expect((await patch(restaurant.id, { menuPageEnabled: true })).body.data.menuPageEnabled).toBe(true);
    expect(await revokedAt()).toBeNull();
    expect(await keys.drain()).toEqual([{ ownerId: restaurant.id }]);
  });

  it.each([
    ['an unknown subscription status', { subscriptionStatus: 'paused' }, 'subscriptionStatus'],
    ['a negative quota', { monthlyQuota: -1 }, 'monthlyQuota'],
    ['a string for a boolean', { suspended: 'yes' }, 'suspended'],
    ['an empty concierge name', { concierge: { displayName: '  ' } }, 'concierge.displayName'],
    ['an unknown field', { currency: 'EUR' }, 'currency'],
  ])('refuses %s with 400 invalid_request naming the field, changing nothing', async (_name, body, param) => {
    const restaurant = await seedRestaurant(h.deps);
    expectError(await patch(restaurant.id, body), 400, 'invalid_request', param);
    expect((await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(h.admin)).body.data).toEqual(restaurant);
  });

  it('answers 404 for an unknown restaurant', async () => {
    expectError(await patch('rst_unknown000000', { suspended: true }), 404, 'not_found');
  });
});

describe('GET /console/restaurants/:id/usage', () => {
  it("counts this billing period's usage only, against the restaurant's limits", async () => {
    const restaurant = await seedRestaurant(h.deps);
    await patch(restaurant.id, { monthlyQuota: 1_000, overageBudget: 50, conciergeAllowance: 20 });
    const row = await h.deps.db
      .selectFrom('restaurants')
      .select('billing_anchor')
      .where('id', '=', restaurant.id)
      .executeTakeFirstOrThrow();
    const period = billingPeriod(row.billing_anchor, h.deps.now());
    const before = new Date(period.start.getTime() - 1);
    const previous = billingPeriod(row.billing_anchor, before);
    await h.deps.db
      .insertInto('usage_counters')
      .values([
        { restaurant_id: restaurant.id, metric: 'api_requests', period_start: period.start, used: 321 },
        { restaurant_id: restaurant.id, metric: 'concierge_messages', period_start: period.start, used: 7 },
        { restaurant_id: restaurant.id, metric: 'embed_views', period_start: period.start, used: 40 },
        { restaurant_id: restaurant.id, metric: 'api_requests', period_start: previous.start, used: 999 },
      ])
      .execute();

    const res = await request(h.app).get(`/console/restaurants/${restaurant.id}/usage`).set(h.admin);
    expect(res.status).toBe(200);
    expect(zData(ZUsage).parse(res.body).data).toEqual({
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
      apiRequests: { used: 321, included: 1_000, overageBudget: 50 },
      conciergeMessages: { used: 7, allowance: 20 },
      embedViews: { used: 40 },
    });
  });

  it('answers 404 for an unknown restaurant', async () => {
    expectError(await request(h.app).get('/console/restaurants/rst_unknown000000/usage').set(h.admin), 404, 'not_found');
  });
});
