import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZMenu, zData } from '@partner/contracts';
import { expectError } from './expect-error.js';
import { holdItemWrite, restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const menuOf = (auth: Record<string, string>, restaurantId: string, etag?: string) => {
  const req = request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurantId}/menu`).set(auth);
  return etag ? req.set('If-None-Match', etag) : req;
};

describe('GET /v1/partner/restaurants/{id}/menu', () => {
  it('answers the published menu by section with a strong ETag, and 304 while unchanged', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const mains = await stack.console.createSection(restaurant.id, { name: 'Mains', position: 1 });
    const starters = await stack.console.createSection(restaurant.id, { name: 'Starters', position: 0 });
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600, sectionId: starters.id });
    await stack.console.createItem(restaurant.id, { name: 'Steak', priceCents: 2600, sectionId: mains.id });
    await stack.console.createItem(restaurant.id, { name: 'Secret special', priceCents: 100, sectionId: mains.id, status: 'draft' });
    await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });

    const res = await menuOf(auth, restaurant.id);
    expect(res.status).toBe(200);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const menu = zData(ZMenu).parse(res.body).data;
    expect(menu.restaurant.id).toBe(restaurant.id);
    expect(menu.sections.map((s) => [s.name, s.items.map((i) => i.name)])).toEqual([
      ['Starters', ['Soup']],
      ['Mains', ['Steak']],
    ]);
    expect(menu.unsectionedItems.map((i) => i.name)).toEqual(['Bread']);

    const again = await menuOf(auth, restaurant.id, etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await menuOf(auth, restaurant.id, `"other", ${etag}`)).status).toBe(304);
    expect((await menuOf(auth, restaurant.id, '"stale"')).status).toBe(200);
  });

  it('changes its ETag with any change to items, sections or the restaurant', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const etags = [(await menuOf(auth, restaurant.id)).headers.etag];
    await stack.console.updateItem(item.id, { priceCents: 650 });
    etags.push((await menuOf(auth, restaurant.id)).headers.etag);
    await stack.console.createSection(restaurant.id, { name: 'Desserts' });
    etags.push((await menuOf(auth, restaurant.id)).headers.etag);
    await stack.console.updateRestaurant(restaurant.id, { name: 'Renamed' });
    etags.push((await menuOf(auth, restaurant.id)).headers.etag);
    await stack.console.deleteItem(item.id);
    etags.push((await menuOf(auth, restaurant.id)).headers.etag);
    expect(new Set(etags).size).toBe(etags.length);
  });

  it('never answers 304 for a change that committed after an earlier-stamped one', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const soup = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const bread = await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });

    // Writer B stamps Soup and holds its transaction open, as a slow console write would.
    const slowWriter = await holdItemWrite(stack, restaurant.id, soup.id, 650);
    // Writer A stamps Bread later and commits first.
    await stack.console.updateItem(bread.id, { priceCents: 350 });

    // A client reads the menu now, with Bread's change and without Soup's.
    const first = await menuOf(auth, restaurant.id);
    await slowWriter.commit();
    const soupPrice = (res: { body: unknown }) =>
      zData(ZMenu)
        .parse(res.body)
        .data.unsectionedItems.find((item) => item.id === soup.id)!.priceCents;
    expect(soupPrice(first)).toBe(600);
    // Soup's change is stamped before Bread's, yet the ETag the client holds must no longer match.
    const conditional = await menuOf(auth, restaurant.id, first.headers.etag);
    expect(conditional.status).toBe(200);
    expect(soupPrice(conditional)).toBe(650);
  });
});

describe('subscription', () => {
  it.each(['live', 'test'] as const)('pauses every data route with 403 subscription_inactive for %s keys', async (environment) => {
    const { restaurant, auth } = await restaurantWithKey(stack, { environment });
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    expectError(
      await request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurant.id}/items`).set(auth),
      403,
      'subscription_inactive',
    );
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth), 403, 'subscription_inactive');
    expectError(await menuOf(auth, restaurant.id), 403, 'subscription_inactive');
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'active', partnerApiAddon: false });
    expectError(await menuOf(auth, restaurant.id), 403, 'subscription_inactive');
    await stack.console.updateRestaurant(restaurant.id, { partnerApiAddon: true });
    expect((await menuOf(auth, restaurant.id)).status).toBe(200);
  });
});

describe('monthly quota', () => {
  it('with a quota of N and 4N concurrent requests, exactly N succeed; the rest are 429 quota_exceeded', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 10_000 });
    const n = 15;
    await stack.console.updateRestaurant(restaurant.id, { monthlyQuota: n, overageBudget: 0 });
    const answers = await Promise.all(
      Array.from({ length: 4 * n }, () => request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurant.id}/items`).set(auth)),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(n);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3 * n);
    const refused = answers.find((res) => res.status === 429)!;
    expectError(refused, 429, 'quota_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await stack.console.usage(restaurant.id)).apiRequests).toEqual({ used: n, included: n, overageBudget: 0 });
  });

  it('adds the opt-in overage budget, which the restaurant alone controls', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 10_000 });
    await stack.console.updateRestaurant(restaurant.id, { monthlyQuota: 2, overageBudget: 1 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await menuOf(auth, restaurant.id)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('never counts test keys or 304s', async () => {
    const test = await restaurantWithKey(stack, { environment: 'test' });
    await stack.console.updateRestaurant(test.restaurant.id, { monthlyQuota: 1 });
    for (let i = 0; i < 3; i++) expect((await menuOf(test.auth, test.restaurant.id)).status).toBe(200);
    expect((await stack.console.usage(test.restaurant.id)).apiRequests.used).toBe(0);

    const live = await restaurantWithKey(stack);
    await stack.console.updateRestaurant(live.restaurant.id, { monthlyQuota: 1 });
    const first = await menuOf(live.auth, live.restaurant.id);
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await menuOf(live.auth, live.restaurant.id, first.headers.etag)).status).toBe(304);
    expect((await stack.console.usage(live.restaurant.id)).apiRequests.used).toBe(1);
    expectError(await menuOf(live.auth, live.restaurant.id), 429, 'quota_exceeded');
  });

  it('resets with the billing period', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    await stack.console.updateRestaurant(restaurant.id, { monthlyQuota: 1 });
    expect((await menuOf(auth, restaurant.id)).status).toBe(200);
    expectError(await menuOf(auth, restaurant.id), 429, 'quota_exceeded');
    // The billing anchor a month and a day back: a new period has begun.
    const anchor = new Date();
    anchor.setUTCMonth(anchor.getUTCMonth() - 1);
    anchor.setUTCDate(anchor.getUTCDate() - 1);
    await stack.db.updateTable('restaurants').set({ billing_anchor: anchor }).where('id', '=', restaurant.id).execute();
    expect((await menuOf(auth, restaurant.id)).status).toBe(200);
    const usage = await stack.console.usage(restaurant.id);
    expect(usage.apiRequests.used).toBe(1);
    expect(new Date(usage.periodStart) > anchor).toBe(true);
  });
});
