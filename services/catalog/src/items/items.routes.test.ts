import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '@partner/auth';
import type { ItemRow } from '@partner/db';
import { accessInvalidations } from '@partner/http';
import { keyPrincipalFor, updateRestaurant } from '@partner/testing';
import {
  type AppHarness,
  expectError,
  expectGuarded,
  PUBLIC_BASE_URL,
  publishableKey,
  testKey,
  useAppHarness,
} from '../testing/app-harness.js';
import { createApp } from '../app.js';
import { VIEW_TOKEN_LIFETIME_MS } from '../deps.js';
import { PagePrefetch, prefetchKey } from './page-prefetch.js';
import {
  usageCounters,
  apiRequestsUsed,
  deleteItem,
  seedIntegrator,
  seedItem,
  seedRestaurant,
  storeModelFiles,
  touchItem,
  usageCounted,
} from '../testing/factories.js';

const h = useAppHarness();

const listPath = (restaurantId: string, query = '') => `/v1/partner/restaurants/${restaurantId}/items${query ? `?${query}` : ''}`;
const detailPath = (itemId: string) => `/v1/partner/items/${itemId}`;
const assetUrlsPath = (itemId: string) => `/v1/partner/items/${itemId}/asset-urls`;
const embedPath = (itemId: string, view?: string) =>
  `/v1/partner/embed/items/${itemId}${view === undefined ? '' : `?view=${encodeURIComponent(view)}`}`;

const DAY_MS = 24 * 3600 * 1000;
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
/** The listing's order: by `updatedAt`, then id. */
const inSyncOrder = (rows: ItemRow[]) =>
  [...rows].sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime() || (a.id < b.id ? -1 : 1));
const signedUrl = (file: string) =>
  expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/v1/assets/\\d+/[\\w-]+/[0-9a-f]{64}/${file.replace('.', '\\.')}$`));

interface SyncPage {
  data: { id: string; name: string; updatedAt: string }[];
  meta: { nextCursor: string | null; syncWindowEnd: string };
}

/** The pages after `first`, following `nextCursor` to the end of the sync with the same query. */
async function followCursors(catalog: Pick<AppHarness, 'get'>, restaurantId: string, principal: Principal, query: string, first: SyncPage) {
  const pages: SyncPage[] = [];
  for (let cursor = first.meta.nextCursor; cursor;) {
    const page = (await catalog.get(listPath(restaurantId, `${query}&cursor=${encodeURIComponent(cursor)}`), principal).expect(200))
      .body as SyncPage;
    pages.push(page);
    cursor = page.meta.nextCursor;
  }
  return pages;
}

/**
 * Another catalog replica on the same database, with a read-ahead of its own: the test sees its
 * lookups (hit or miss) and the reads it holds.
 */
function catalogReplica() {
  const lookups: boolean[] = [];
  const pagePrefetch = new PagePrefetch({ onTake: (hit) => lookups.push(hit) });
  const hold = vi.spyOn(pagePrefetch, 'hold');
  const app = createApp({ ...h.deps, pagePrefetch });
  const get = (path: string, principal: Principal) => request(app).get(path).set(h.caller.headers(principal));
  return { lookups, pagePrefetch, hold, get };
}

/** A restaurant owned by a live restaurant key, with three published dishes. */
async function seedMenu(overrides: Parameters<typeof seedRestaurant>[1] = {}) {
  const { restaurant, owner } = await seedRestaurant(h.deps.db, overrides);
  const items = [];
  for (const name of ['Bruschetta', 'Carbonara', 'Tiramisu']) items.push(await seedItem(h.deps.db, restaurant.id, { name }));
  return { restaurant, owner, key: keyPrincipalFor(owner), items };
}

describe('the item routes', () => {
  it.each([
    ['get', 'list'],
    ['get', 'detail'],
    ['get', 'embed'],
    ['post', 'asset-urls'],
  ] as const)('let only the gateway in (%s %s)', async (method, route) => {
    const { restaurant, key, items } = await seedMenu();
    const item = items[0]!;
    const path = {
      list: listPath(restaurant.id),
      detail: detailPath(item.id),
      embed: embedPath(item.id),
      'asset-urls': assetUrlsPath(item.id),
    }[route];
    await expectGuarded(h, method, path, key);
  });
});

describe('GET /v1/partner/restaurants/{id}/items', () => {
  it('lists the live items of every status in sync order, with an open window', async () => {
    const { restaurant, key, items } = await seedMenu();
    const draft = await seedItem(h.deps.db, restaurant.id, { status: 'draft' });
    await deleteItem(h.deps.db, items[1]!.id);
    const before = Date.now();
    const res = await h.get(listPath(restaurant.id), key).expect(200);
    const live = inSyncOrder([items[0]!, items[2]!, draft]);
    expect(ids(res.body.data)).toEqual(ids(live));
    expect(res.body.data[0]).toMatchObject({ id: live[0]!.id, restaurantId: restaurant.id, currency: 'EUR', status: 'published' });
    expect(res.body.meta).toEqual({
      nextCursor: null,
      syncWindowStart: null,
      syncWindowEnd: expect.any(String),
      fullResyncRequired: false,
    });
    expect(Math.abs(Date.parse(res.body.meta.syncWindowEnd) - before)).toBeLessThan(5_000);
  });

  it('filters by status', async () => {
    const { restaurant, key } = await seedMenu();
    const draft = await seedItem(h.deps.db, restaurant.id, { status: 'draft' });
    const res = await h.get(listPath(restaurant.id, 'status=draft'), key).expect(200);
    expect(ids(res.body.data)).toEqual([draft.id]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['status=sold', 'status'],
    ['updatedAfter=2026-01-01T00:00:00', 'updatedAfter'],
    ['since=2026-01-01T00:00:00Z', 'since'],
  ])('refuses %s with 400 naming %s', async (query, param) => {
    const { restaurant, key } = await seedMenu();
    expectError(await h.get(listPath(restaurant.id, query), key), 400, 'invalid_request', param);
  });

  it('takes a limit of 1000', async () => {
    const { restaurant, key } = await seedMenu();
    expect((await h.get(listPath(restaurant.id, 'limit=1000'), key).expect(200)).body.data).toHaveLength(3);
  });

  it('refuses status together with updatedAfter', async () => {
    const { restaurant, key } = await seedMenu();
    const res = await h.get(listPath(restaurant.id, `status=published&updatedAfter=${new Date().toISOString()}`), key);
    expectError(res, 400, 'invalid_request', 'status');
  });

  it('pages through one fixed window: an item written after the first page waits for the next sync', async () => {
    const { restaurant, key, items } = await seedMenu();
    items.push(await seedItem(h.deps.db, restaurant.id), await seedItem(h.deps.db, restaurant.id));

    const first = (await h.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    const late = await seedItem(h.deps.db, restaurant.id);
    const pages = [first, ...(await followCursors(h, restaurant.id, key, 'limit=2', first))];
    expect(pages.map((page) => page.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => ids(page.data))).toEqual(ids(inSyncOrder(items)));
    expect(new Set(pages.map((page) => page.meta.syncWindowEnd)).size).toBe(1);
    expect(pages.flatMap((page) => ids(page.data))).not.toContain(late.id);
  });

  it('reads each next page ahead: the later pages of a sync come from the read-ahead, every item once, in order', async () => {
    const { restaurant, key, items } = await seedMenu();
    items.push(await seedItem(h.deps.db, restaurant.id), await seedItem(h.deps.db, restaurant.id));
    const replica = catalogReplica();

    const first = (await replica.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    const pages = [first, ...(await followCursors(replica, restaurant.id, key, 'limit=2', first))];
    expect(pages.map((page) => page.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => ids(page.data))).toEqual(ids(inSyncOrder(items)));
    expect(replica.lookups).toEqual([true, true]);
    expect(replica.hold).toHaveBeenCalledTimes(2); // not after the last page
  });

  it('answers a later page at the limit it is asked with, not the one its page was read ahead at', async () => {
    const { restaurant, key, items } = await seedMenu();
    for (let i = 0; i < 3; i++) items.push(await seedItem(h.deps.db, restaurant.id));
    const replica = catalogReplica();

    const first = (await replica.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    const pages = [first, ...(await followCursors(replica, restaurant.id, key, 'limit=3', first))];
    expect(pages.map((page) => page.data.length)).toEqual([2, 3, 1]);
    expect(pages.flatMap((page) => ids(page.data))).toEqual(ids(inSyncOrder(items)));
    expect(replica.lookups).toEqual([false, false]);
  });

  it('stays gapless when a dish changes after its page was read ahead: seen as it was, then again in the next sync', async () => {
    const { restaurant, key, items } = await seedMenu();
    const changed = inSyncOrder(items)[2]!;
    const replica = catalogReplica();

    const first = (await replica.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    await replica.hold.mock.calls[0]![1]; // the second page has been read
    const renamed = await touchItem(h.deps.db, changed.id, { name: 'Tiramisù della casa' });
    const [second] = await followCursors(replica, restaurant.id, key, 'limit=2', first);
    expect(replica.lookups).toEqual([true]);
    expect([...ids(first.data), ...ids(second!.data)]).toEqual(ids(inSyncOrder(items)));
    expect(second!.data.at(-1)).toMatchObject({ id: changed.id, name: changed.name, updatedAt: changed.updated_at.toISOString() });

    const next = (await replica.get(listPath(restaurant.id, `updatedAfter=${first.meta.syncWindowEnd}`), key).expect(200)).body as SyncPage;
    expect(next.data).toEqual([
      expect.objectContaining({ id: changed.id, name: 'Tiramisù della casa', updatedAt: renamed.updated_at.toISOString() }),
    ]);
  });

  it('reads a page that lands on another replica afresh, and ends the read-ahead there', async () => {
    const { restaurant, key, items } = await seedMenu();
    for (let i = 0; i < 3; i++) items.push(await seedItem(h.deps.db, restaurant.id));
    const order = inSyncOrder(items);
    const [a, b] = [catalogReplica(), catalogReplica()];
    const page = (replica: typeof a, cursor: string | null) =>
      replica.get(listPath(restaurant.id, `limit=2&cursor=${encodeURIComponent(cursor!)}`), key).expect(200);

    const first = (await a.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    await a.hold.mock.calls[0]![1];
    // Changed after a read its page ahead, before b reads it: it leaves this window for the next sync.
    await touchItem(h.deps.db, order[2]!.id, { name: 'Moved on' });
    const second = (await page(b, first.meta.nextCursor)).body as SyncPage;
    expect(ids(second.data)).toEqual(ids(order.slice(3, 5)));
    expect(b.lookups).toEqual([false]);
    expect(b.hold).not.toHaveBeenCalled();
    const third = (await page(a, second.meta.nextCursor)).body as SyncPage;
    expect(ids(third.data)).toEqual(ids(order.slice(5)));
    expect(a.lookups).toEqual([false]);

    const next = (await a.get(listPath(restaurant.id, `updatedAfter=${first.meta.syncWindowEnd}`), key).expect(200)).body as SyncPage;
    expect(next.data).toEqual([expect.objectContaining({ id: order[2]!.id, name: 'Moved on' })]);
  });

  it('refuses a later page whose page was read ahead as it refuses any (429, 404), and reads it afresh for its client', async () => {
    const replica = catalogReplica();
    const limited = await seedMenu({ monthly_quota: 1, overage_budget: 0 });
    const limitedFirst = (await replica.get(listPath(limited.restaurant.id, 'limit=1'), limited.key).expect(200)).body as SyncPage;
    const overQuota = await replica.get(
      listPath(limited.restaurant.id, `limit=1&cursor=${encodeURIComponent(limitedFirst.meta.nextCursor!)}`),
      limited.key,
    );
    expectError(overQuota, 429, 'quota_exceeded');
    expect(overQuota.body.data).toBeUndefined();

    const { restaurant, key, items } = await seedMenu();
    const first = (await replica.get(listPath(restaurant.id, 'limit=1'), key).expect(200)).body as SyncPage;
    const secondPath = listPath(restaurant.id, `limit=1&cursor=${encodeURIComponent(first.meta.nextCursor!)}`);
    const stranger = await replica.get(secondPath, (await seedMenu()).key);
    expectError(stranger, 404, 'not_found');
    expect(stranger.body.data).toBeUndefined();
    expect(replica.lookups).toEqual([true, true]);

    expect(ids((await replica.get(secondPath, key).expect(200)).body.data)).toEqual([inSyncOrder(items)[1]!.id]);
    expect(replica.lookups).toEqual([true, true, false]);
  });

  it('reads a page afresh when its read-ahead failed', async () => {
    const { restaurant, key, items } = await seedMenu();
    const replica = catalogReplica();
    const first = (await replica.get(listPath(restaurant.id, 'limit=2'), key).expect(200)).body as SyncPage;
    replica.pagePrefetch.hold(prefetchKey(first.meta.nextCursor!, 2), Promise.reject(new Error('Connection terminated unexpectedly')));

    const [second] = await followCursors(replica, restaurant.id, key, 'limit=2', first);
    expect(replica.lookups).toEqual([true]);
    expect(ids(second!.data)).toEqual([inSyncOrder(items)[2]!.id]);
    expect(second!.meta.nextCursor).toBeNull();
  });

  it('refuses a cursor with other filters (cursor_filter_mismatch) or from another restaurant (invalid_cursor)', async () => {
    const a = await seedMenu();
    const b = await seedMenu();
    const integrator = keyPrincipalFor(
      await seedIntegrator(h.deps.db, [{ restaurantId: a.restaurant.id }, { restaurantId: b.restaurant.id }]),
    );
    const cursor = encodeURIComponent(
      (await h.get(listPath(a.restaurant.id, 'limit=1&status=published'), integrator).expect(200)).body.meta.nextCursor,
    );

    await h.get(listPath(a.restaurant.id, `limit=1&status=published&cursor=${cursor}`), integrator).expect(200);
    expectError(await h.get(listPath(a.restaurant.id, `limit=1&cursor=${cursor}`), integrator), 400, 'cursor_filter_mismatch', 'cursor');
    expectError(
      await h.get(listPath(a.restaurant.id, `limit=1&status=draft&cursor=${cursor}`), integrator),
      400,
      'cursor_filter_mismatch',
      'cursor',
    );
    expectError(
      await h.get(listPath(b.restaurant.id, `limit=1&status=published&cursor=${cursor}`), integrator),
      400,
      'invalid_cursor',
      'cursor',
    );
  });

  it('with updatedAfter, answers the changes since then, deletions as tombstones', async () => {
    const { restaurant, key, items } = await seedMenu();
    const previousEnd: string = (await h.get(listPath(restaurant.id), key).expect(200)).body.meta.syncWindowEnd;
    const edited = await touchItem(h.deps.db, items[0]!.id, { name: 'Bruschetta al pomodoro' });
    const deleted = await deleteItem(h.deps.db, items[2]!.id);
    const added = await seedItem(h.deps.db, restaurant.id);

    const res = await h.get(listPath(restaurant.id, `updatedAfter=${previousEnd}`), key).expect(200);
    expect(ids(res.body.data)).toEqual(ids(inSyncOrder([edited, deleted, added])));
    expect(res.body.data.find((entry: { id: string }) => entry.id === edited.id)).toMatchObject({ name: 'Bruschetta al pomodoro' });
    expect(res.body.data.find((entry: { id: string }) => entry.id === deleted.id)).toEqual({
      id: deleted.id,
      object: 'item',
      deleted: true,
      updatedAt: deleted.updated_at.toISOString(),
    });
    expect(res.body.meta).toEqual({
      nextCursor: null,
      syncWindowStart: previousEnd,
      syncWindowEnd: expect.any(String),
      fullResyncRequired: false,
    });
    expect(Date.parse(res.body.meta.syncWindowEnd)).toBeGreaterThanOrEqual(added.updated_at.getTime());

    const next = await h.get(listPath(restaurant.id, `updatedAfter=${res.body.meta.syncWindowEnd}`), key).expect(200);
    expect(next.body.data).toEqual([]);
  });

  it('keeps a client that is ahead of the clock where it is, and refuses one more than a minute ahead', async () => {
    const { restaurant, key } = await seedMenu();
    const ahead = new Date(Date.now() + 30_000).toISOString();
    const res = await h.get(listPath(restaurant.id, `updatedAfter=${ahead}`), key).expect(200);
    expect(res.body).toEqual({
      data: [],
      meta: { nextCursor: null, syncWindowStart: ahead, syncWindowEnd: ahead, fullResyncRequired: false },
    });

    const future = new Date(Date.now() + 5 * 60_000).toISOString();
    expectError(await h.get(listPath(restaurant.id, `updatedAfter=${future}`), key), 400, 'invalid_request', 'updatedAfter');
  });

  it('asks for a full resync once updatedAfter is past the 30-day tombstone retention', async () => {
    const { restaurant, key } = await seedMenu();
    const updatedAfter = new Date(Date.now() - 29 * DAY_MS).toISOString();
    const recent = await h.get(listPath(restaurant.id, `updatedAfter=${updatedAfter}`), key).expect(200);
    expect(recent.body.meta.fullResyncRequired).toBe(false);
    expect(recent.body.data).toHaveLength(3);

    h.clock.advance(2 * DAY_MS);
    const res = await h.get(listPath(restaurant.id, `updatedAfter=${updatedAfter}`), key).expect(200);
    expect(res.body).toEqual({
      data: [],
      meta: { nextCursor: null, syncWindowStart: updatedAfter, syncWindowEnd: updatedAfter, fullResyncRequired: true },
    });
  });

  it.each([
    ['the subscription lapsed', { subscription_status: 'lapsed' as const }],
    ['the Partner API add-on is off', { partner_api_addon: false }],
  ])('refuses live and test keys when %s', async (_case, state) => {
    const { restaurant, owner, key } = await seedMenu(state);
    expectError(await h.get(listPath(restaurant.id), key), 403, 'subscription_inactive');
    expectError(await h.get(listPath(restaurant.id), testKey(owner)), 403, 'subscription_inactive');
  });

  it("answers 404 for another restaurant's items, an unknown restaurant and an ungranted integrator", async () => {
    const mine = await seedMenu();
    const theirs = await seedMenu();
    expectError(await h.get(listPath(theirs.restaurant.id), mine.key), 404, 'not_found');
    expectError(await h.get(listPath('rst_doesnotexist000000000000'), mine.key), 404, 'not_found');
    const revoked = keyPrincipalFor(await seedIntegrator(h.deps.db, [{ restaurantId: theirs.restaurant.id, status: 'revoked' }]));
    expectError(await h.get(listPath(theirs.restaurant.id), revoked), 404, 'not_found');
    expectError(await h.get(listPath(mine.restaurant.id), revoked), 404, 'not_found');
  });

  it('checks a later page (read while access and quota are checked) as the first: 404 before a bad cursor, 429 with no rows', async () => {
    const { restaurant, key } = await seedMenu({ monthly_quota: 1, overage_budget: 0 });
    const cursor = encodeURIComponent((await h.get(listPath(restaurant.id, 'limit=1'), key).expect(200)).body.meta.nextCursor);
    const refused = await h.get(listPath(restaurant.id, `limit=1&cursor=${cursor}`), key);
    expectError(refused, 429, 'quota_exceeded');
    expect(refused.body.data).toBeUndefined();
    const stranger = (await seedMenu()).key;
    expectError(await h.get(listPath(restaurant.id, `limit=1&cursor=${cursor}`), stranger), 404, 'not_found');
    expectError(await h.get(listPath(restaurant.id, 'limit=1&cursor=notacursor'), stranger), 404, 'not_found');
    expectError(await h.get(listPath(restaurant.id, 'limit=1&cursor=notacursor'), key), 400, 'invalid_cursor', 'cursor');
  });

  it('refuses an integrator whose grant lacks menu:read', async () => {
    const { restaurant } = await seedMenu();
    const integrator = keyPrincipalFor(await seedIntegrator(h.deps.db, [{ restaurantId: restaurant.id, scopes: ['assets:read'] }]));
    expectError(await h.get(listPath(restaurant.id), integrator), 403, 'forbidden_scope');
  });
});

describe('GET /v1/partner/items/{id}', () => {
  it('answers the item, with no assets while it has no model', async () => {
    const { restaurant, key } = await seedMenu();
    const item = await seedItem(h.deps.db, restaurant.id, {
      name: 'Vitello tonnato',
      slug: 'vitello-tonnato',
      description: 'Veal, tuna sauce',
      price_cents: 1890,
      dietary_tags: ['gluten-free'],
      allergens: ['fish', 'eggs'],
    });
    const res = await h.get(detailPath(item.id), key).expect(200);
    expect(res.body).toEqual({
      data: {
        id: item.id,
        restaurantId: restaurant.id,
        slug: 'vitello-tonnato',
        name: 'Vitello tonnato',
        description: 'Veal, tuna sauce',
        priceCents: 1890,
        price: 18.9,
        currency: 'EUR',
        status: 'published',
        sectionId: null,
        dietaryTags: ['gluten-free'],
        allergens: ['fish', 'eggs'],
        model: { status: 'none', updatedAt: null },
        createdAt: item.created_at.toISOString(),
        updatedAt: item.updated_at.toISOString(),
        assets: null,
      },
    });
  });

  it('signs the URLs of a ready model, valid for the configured lifetime', async () => {
    const { restaurant, key } = await seedMenu();
    const files = await storeModelFiles(h.deps.storage);
    const item = await seedItem(h.deps.db, restaurant.id, files.columns);
    h.clock.pin(new Date('2026-06-01T12:00:00.400Z'));
    const res = await h.get(detailPath(item.id), key).expect(200);
    expect(res.body.data.model).toEqual({ status: 'ready', updatedAt: files.columns.model_updated_at.toISOString() });
    expect(res.body.data.assets).toEqual({
      usdzUrl: signedUrl('dish.usdz'),
      glbUrl: signedUrl('dish.glb'),
      thumbnailUrl: signedUrl('thumbnail.png'),
      expiresAt: '2026-06-01T12:15:00.000Z',
    });
  });

  it("answers the same 404 for another owner's, a deleted, an unknown and a malformed item id", async () => {
    const mine = await seedMenu();
    const theirs = await seedMenu();
    const deleted = await deleteItem(h.deps.db, mine.items[0]!.id);
    for (const id of [theirs.items[0]!.id, deleted.id, 'itm_doesnotexist0000000000', 'itm_not-an-id', 'nope']) {
      const res = await h.get(detailPath(id), mine.key);
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe('No such item.');
    }
    await h.get(detailPath(mine.items[1]!.id), mine.key).expect(200);
  });

  it('gives an integrator the items of granted restaurants only, and only with assets:read', async () => {
    const granted = await seedMenu();
    const other = await seedMenu();
    const scoped = await seedMenu();
    const integrator = keyPrincipalFor(
      await seedIntegrator(h.deps.db, [
        { restaurantId: granted.restaurant.id },
        { restaurantId: scoped.restaurant.id, scopes: ['menu:read'] },
      ]),
    );
    await h.get(detailPath(granted.items[0]!.id), integrator).expect(200);
    expectError(await h.get(detailPath(other.items[0]!.id), integrator), 404, 'not_found');
    expectError(await h.get(detailPath(scoped.items[0]!.id), integrator), 403, 'forbidden_scope');
  });

  it("stops answering once console reports the restaurant's subscription lapsed", async () => {
    const { restaurant, key, items } = await seedMenu();
    await h.get(detailPath(items[0]!.id), key).expect(200);
    await updateRestaurant(h.deps.db, restaurant.id, { subscription_status: 'lapsed' });
    await accessInvalidations.publish(h.deps.redis, h.deps.redisPrefix, { restaurantId: restaurant.id });
    let res = await h.get(detailPath(items[0]!.id), key);
    for (let attempt = 0; res.status === 200 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await h.get(detailPath(items[0]!.id), key);
    }
    expectError(res, 403, 'subscription_inactive');
  });
});

describe('POST /v1/partner/items/{id}/asset-urls', () => {
  it('answers 409 model_not_ready without a ready model, and counts nothing', async () => {
    const { restaurant, key } = await seedMenu();
    const processing = await seedItem(h.deps.db, restaurant.id, { model_status: 'processing' });
    for (const item of [processing, await seedItem(h.deps.db, restaurant.id)]) {
      expectError(await h.post(assetUrlsPath(item.id), key), 409, 'model_not_ready');
    }
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(0);
  });

  it('signs fresh URLs for the formats asked for', async () => {
    const { restaurant, key } = await seedMenu();
    const item = await seedItem(h.deps.db, restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    const all = await h.post(assetUrlsPath(item.id), key).expect(200);
    expect(all.body).toEqual({
      data: {
        itemId: item.id,
        usdzUrl: signedUrl('dish.usdz'),
        glbUrl: signedUrl('dish.glb'),
        thumbnailUrl: signedUrl('thumbnail.png'),
        expiresAt: expect.any(String),
      },
    });
    const glbOnly = await h
      .post(assetUrlsPath(item.id), key)
      .send({ formats: ['glb'] })
      .expect(200);
    expect(glbOnly.body.data).toMatchObject({ usdzUrl: null, glbUrl: signedUrl('dish.glb'), thumbnailUrl: signedUrl('thumbnail.png') });
    expectError(await h.post(assetUrlsPath(item.id), key).send({ formats: ['obj'] }), 400, 'invalid_request', 'formats.0');
  });

  it("answers 404 for another owner's item", async () => {
    const mine = await seedMenu();
    const theirs = await seedMenu();
    const item = await seedItem(h.deps.db, theirs.restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    expectError(await h.post(assetUrlsPath(item.id), mine.key), 404, 'not_found');
  });
});

describe('quota', () => {
  it('counts exactly one unit per listing page, item detail and asset-url refresh of a live key', async () => {
    const { restaurant, key } = await seedMenu();
    const item = await seedItem(h.deps.db, restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    const counted = async () => usageCounters(h.deps.db, restaurant.id);

    await h.get(listPath(restaurant.id, 'limit=2'), key).expect(200);
    expect(await counted()).toEqual([{ period_start: restaurant.billing_anchor, used: 1 }]);
    await h.get(detailPath(item.id), key).expect(200);
    expect(await counted()).toEqual([{ period_start: restaurant.billing_anchor, used: 2 }]);
    await h.post(assetUrlsPath(item.id), key).expect(200);
    expect(await counted()).toEqual([{ period_start: restaurant.billing_anchor, used: 3 }]);
  });

  it('answers 429 quota_exceeded with Retry-After until the billing period ends', async () => {
    const { owner, key, items } = await seedMenu({ monthly_quota: 0, billing_anchor: new Date('2026-01-01T00:00:00Z') });
    h.clock.pin(new Date('2026-03-11T00:00:00Z'));
    const res = await h.get(detailPath(items[0]!.id), key);
    expectError(res, 429, 'quota_exceeded');
    expect(res.headers['retry-after']).toBe(String(21 * 24 * 3600));
    await h.get(detailPath(items[0]!.id), testKey(owner)).expect(200);
  });

  it('grants the monthly quota plus the overage budget, never more', async () => {
    const { restaurant, key, items } = await seedMenu({ monthly_quota: 1, overage_budget: 1 });
    await h.get(detailPath(items[0]!.id), key).expect(200);
    await h.get(listPath(restaurant.id), key).expect(200);
    expectError(await h.get(detailPath(items[0]!.id), key), 429, 'quota_exceeded');
    expectError(await h.get(listPath(restaurant.id), key), 429, 'quota_exceeded');
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
  });

  it('never counts a test key', async () => {
    const { restaurant, owner, items } = await seedMenu({ monthly_quota: 0 });
    const item = await seedItem(h.deps.db, restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    await h.get(listPath(restaurant.id), testKey(owner)).expect(200);
    await h.get(detailPath(items[0]!.id), testKey(owner)).expect(200);
    await h.post(assetUrlsPath(item.id), testKey(owner)).expect(200);
    await h.get(embedPath(item.id), publishableKey(owner, { environment: 'test' })).expect(200);
    expect(await usageCounters(h.deps.db, restaurant.id)).toEqual([]);
  });
});

describe('GET /v1/partner/embed/items/{id}', () => {
  it('answers what the viewer needs and counts the load as one view', async () => {
    const { restaurant, owner } = await seedMenu({ public_menu_url: 'https://prova.example/menu' });
    const item = await seedItem(h.deps.db, restaurant.id, { name: 'Panna cotta', ...(await storeModelFiles(h.deps.storage)).columns });
    const res = await h.get(embedPath(item.id), publishableKey(owner)).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      data: {
        itemId: item.id,
        name: 'Panna cotta',
        thumbnailUrl: signedUrl('thumbnail.png'),
        usdzUrl: signedUrl('dish.usdz'),
        glbUrl: signedUrl('dish.glb'),
        expiresAt: expect.any(String),
        publicMenuUrl: 'https://prova.example/menu',
        testMode: false,
        viewToken: expect.any(String),
      },
    });
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);
    expect(await usageCounted(h.deps.db, restaurant.id, 'embed_views')).toBe(1);
  });

  it('counts no view for a load the quota refuses', async () => {
    const { restaurant, owner } = await seedMenu({ monthly_quota: 1, overage_budget: 0 });
    const item = await seedItem(h.deps.db, restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    await h.get(embedPath(item.id), publishableKey(owner)).expect(200);
    expectError(await h.get(embedPath(item.id), publishableKey(owner)), 429, 'quota_exceeded');
    expect(await usageCounted(h.deps.db, restaurant.id, 'embed_views')).toBe(1);
  });

  it('shows a publishable key published dishes only: a draft or archived one is the same 404 as a missing one, and costs nothing', async () => {
    const { restaurant, owner } = await seedMenu();
    const missing = await h.get(embedPath('itm_doesnotexist000000000000'), publishableKey(owner));
    for (const status of ['draft', 'archived'] as const) {
      const item = await seedItem(h.deps.db, restaurant.id, { status, ...(await storeModelFiles(h.deps.storage)).columns });
      const res = await h.get(embedPath(item.id), publishableKey(owner));
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe(missing.body.error.message);
    }
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(0);
  });

  it("refreshes with the load's view token without counting a view; any other token counts", async () => {
    const { restaurant, owner, items } = await seedMenu();
    const item = await seedItem(h.deps.db, restaurant.id, (await storeModelFiles(h.deps.storage)).columns);
    const { viewToken } = (await h.get(embedPath(item.id), publishableKey(owner)).expect(200)).body.data;
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    const refreshed = await h.get(embedPath(item.id, viewToken), publishableKey(owner)).expect(200);
    expect(refreshed.body.data.viewToken).toBe(viewToken);
    expect(refreshed.body.data.glbUrl).toEqual(signedUrl('dish.glb'));
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    const otherItemsToken = (await h.get(embedPath(items[0]!.id), publishableKey(owner)).expect(200)).body.data.viewToken;
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
    for (const [token, principal] of [
      [`${Date.now() + 3_600_000}.bWFkZS11cA`, publishableKey(owner)],
      [otherItemsToken, publishableKey(owner)],
      [viewToken, publishableKey(owner, { keyId: 'key_anotherkey000000000000' })],
    ] as const) {
      const res = await h.get(embedPath(item.id, token), principal).expect(200);
      expect(res.body.data.viewToken).not.toBe(token);
    }
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(5);

    h.clock.advance(VIEW_TOKEN_LIFETIME_MS + 1);
    await h.get(embedPath(item.id, viewToken), publishableKey(owner)).expect(200);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(6);
  });

  it('answers an item without a model with no URLs, and marks test keys', async () => {
    const { owner, items } = await seedMenu();
    const res = await h.get(embedPath(items[0]!.id), publishableKey(owner, { environment: 'test' }));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ thumbnailUrl: null, usdzUrl: null, glbUrl: null, testMode: true });
  });
});
