import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb } from '@partner/db';
import { freePort, keyPrincipalFor, seedItems } from '@partner/testing';
import { createApp } from '../app.js';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { apiRequestsUsed, seedRestaurant, seedSection, touchItem } from '../testing/factories.js';
import { buildMenu } from './menu-build.js';
import { MenuCache } from './menu-cache.js';

const h = useAppHarness();
const menuPath = (restaurantId: string) => `/v1/partner/restaurants/${restaurantId}/menu`;

/** 2,500 dishes (pages of 1,000 are read while building): a third in each of two sections, a third in none. */
async function seedBigMenu() {
  const { restaurant, owner } = await seedRestaurant(h.deps.db);
  const mains = await seedSection(h.deps.db, restaurant.id, 'Mains', 2);
  const starters = await seedSection(h.deps.db, restaurant.id, 'Starters', 1);
  const { idOf } = await seedItems(h.deps.db, restaurant.id, 2_500, { sectionIds: [mains.id, null, starters.id], batchSize: 1_000 });
  return { restaurant, key: keyPrincipalFor(owner), idOf };
}

/** The catalog with its own menu cache, counting the builds it starts. */
function countingApp(options: { maxBytes?: number; menuMaxItems?: number } = {}) {
  const counter = { builds: 0 };
  const menus = new MenuCache({
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    build: (restaurantId, out) => {
      counter.builds++;
      return buildMenu(h.deps.db, restaurantId, out);
    },
  });
  const app = createApp({ ...h.deps, menus, menuMaxItems: options.menuMaxItems ?? h.deps.menuMaxItems });
  const get = (path: string, principal: Parameters<typeof h.caller.headers>[0]) => request(app).get(path).set(h.caller.headers(principal));
  return { counter, get };
}

/** A build's bytes, straight from buildMenu. */
async function freshBuild(restaurantId: string): Promise<{ etag: string; body: Buffer }> {
  const chunks: Buffer[] = [];
  let etag = '';
  await buildMenu(h.deps.db, restaurantId, { begin: (built) => (etag = built), push: (chunk) => chunks.push(chunk) });
  return { etag, body: Buffer.concat(chunks) };
}

describe('the menu, built once per version', () => {
  it('answers every published item in menu order, as compact JSON, the same bytes streamed, cached and freshly built', async () => {
    const { restaurant, key } = await seedBigMenu();
    const { counter, get } = countingApp();
    const streamed = await get(menuPath(restaurant.id), key).expect(200);
    const cached = await get(menuPath(restaurant.id), key).expect(200);
    expect(counter.builds).toBe(1);
    expect(streamed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(cached.headers['content-length']).toBe(String(Buffer.byteLength(cached.text)));
    expect(cached.text).toBe(streamed.text);
    expect(cached.headers.etag).toBe(streamed.headers.etag);
    const fresh = await freshBuild(restaurant.id);
    expect(fresh.body.toString()).toBe(cached.text);
    expect(fresh.etag).toBe(cached.headers.etag);
    // Byte for byte what res.json of the parsed menu would send.
    expect(JSON.stringify(JSON.parse(cached.text))).toBe(cached.text);

    const menu = cached.body.data as {
      sections: { id: string; items: { id: string; sectionId: string }[] }[];
      unsectionedItems: { id: string }[];
    };
    const inOrder = async (sectionId: string | null) =>
      (
        await h.deps.db
          .selectFrom('items')
          .select('id')
          .where('restaurant_id', '=', restaurant.id)
          .where('section_id', sectionId === null ? 'is' : '=', sectionId)
          .orderBy('name')
          .orderBy('id')
          .execute()
      ).map((row) => row.id);
    for (const section of menu.sections) expect(section.items.map((item) => item.id)).toEqual(await inOrder(section.id));
    expect(menu.unsectionedItems.map((item) => item.id)).toEqual(await inOrder(null));
    const total = menu.sections.reduce((sum, section) => sum + section.items.length, menu.unsectionedItems.length);
    expect(total).toBe(2_500);
    expect(menu.sections.every((section) => section.items.length > 500)).toBe(true);
  });

  it('builds a changed menu once for many concurrent requests, and again only when it changes', async () => {
    const { restaurant, key, idOf } = await seedBigMenu();
    const { counter, get } = countingApp();
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(menuPath(restaurant.id), key).expect(200)));
    expect(counter.builds).toBe(1);
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(new Set(answers.map((res) => res.headers.etag)).size).toBe(1);
    const etag = answers[0]!.headers.etag!;

    await Promise.all(Array.from({ length: 4 }, () => get(menuPath(restaurant.id), key).set('If-None-Match', etag).expect(304)));
    await Promise.all(Array.from({ length: 4 }, () => get(menuPath(restaurant.id), key).expect(200)));
    expect(counter.builds).toBe(1);

    await touchItem(h.deps.db, idOf(7), { price_cents: 4_200 });
    const changed = await Promise.all(Array.from({ length: 8 }, () => get(menuPath(restaurant.id), key).expect(200)));
    expect(counter.builds).toBe(2);
    expect(new Set(changed.map((res) => res.headers.etag))).toEqual(new Set([changed[0]!.headers.etag]));
    expect(changed[0]!.headers.etag).not.toBe(etag);
    expect(changed[0]!.text).toContain('"priceCents":4200');
  });

  it('keeps no menu larger than the cache, and builds it per request instead', async () => {
    const { restaurant, key } = await seedBigMenu();
    const { counter, get } = countingApp({ maxBytes: 64 * 1024 });
    const first = await get(menuPath(restaurant.id), key).expect(200);
    const second = await get(menuPath(restaurant.id), key).expect(200);
    expect(counter.builds).toBe(2);
    expect(second.text).toBe(first.text);
  });

  it('answers a menu past the size bound with 409 menu_too_large and counts no quota, but still 304 to its ETag', async () => {
    const { restaurant, key } = await seedBigMenu();
    const etag = (await h.get(menuPath(restaurant.id), key).expect(200)).headers.etag!;
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    const { counter, get } = countingApp({ menuMaxItems: 2_499 });
    const res = await get(menuPath(restaurant.id), key);
    expectError(res, 409, 'menu_too_large');
    expect(res.body.error.message).toContain('2500 published items');
    expect(res.body.error.message).toContain('/items');
    await get(menuPath(restaurant.id), key).set('If-None-Match', etag).expect(304);
    expect(counter.builds).toBe(0);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    const { get: atTheBound } = countingApp({ menuMaxItems: 2_500 });
    await atTheBound(menuPath(restaurant.id), key).expect(200);
  });

  it('keeps the published item count with every write, bulk ones included', async () => {
    const { restaurant } = await seedBigMenu();
    const count = async () =>
      (await h.deps.db.selectFrom('restaurants').select('menu_item_count').where('id', '=', restaurant.id).executeTakeFirstOrThrow())
        .menu_item_count;
    expect(await count()).toBe(2_500);
    // Seeded again (one statement): ids and slugs of their own.
    await seedItems(h.deps.db, restaurant.id, 10);
    expect(await count()).toBe(2_510);
    await sql`update items set status = 'draft' where restaurant_id = ${restaurant.id} and name like 'Dish number 1%'`.execute(h.deps.db);
    await sql`update items set deleted_at = now() where restaurant_id = ${restaurant.id} and name like 'Dish number 2%'`.execute(h.deps.db);
    const { live } = await h.deps.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number>().as('live'))
      .where('restaurant_id', '=', restaurant.id)
      .where('status', '=', 'published')
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(live).toBeLessThan(2_510);
    expect(await count()).toBe(live);
    await h.deps.db.deleteFrom('items').where('restaurant_id', '=', restaurant.id).execute();
    expect(await count()).toBe(0);
  });

  it('lets a second writer of the menu commit while a first holds its transaction open, and moves the ETag at each commit', async () => {
    const { restaurant, key, idOf } = await seedBigMenu();
    const etagNow = async () => (await h.get(menuPath(restaurant.id), key).expect(200)).headers.etag!;
    const before = await etagNow();
    const held = Promise.withResolvers<void>();
    const slow = h.deps.db.transaction().execute(async (tx) => {
      await touchItem(tx, idOf(1), { price_cents: 111 });
      await held.promise;
    });
    const started = Date.now();
    await touchItem(h.deps.db, idOf(2), { price_cents: 222 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const afterFast = await etagNow();
    expect(afterFast).not.toBe(before);
    held.resolve();
    await slow;
    expect(await etagNow()).not.toBe(afterFast);
  });

  it('answers a build whose database refuses with 503 and Retry-After, keeps nothing, and builds afresh next time', async () => {
    const { restaurant, key } = await seedBigMenu();
    const closed = createDb({
      url: `postgres://postgres@127.0.0.1:${await freePort()}/closed`,
      deadlines: { connectTimeoutMs: 300, statementTimeoutMs: 500, idleInTransactionTimeoutMs: 2000 },
    });
    let refuse = true;
    const menus = new MenuCache({ maxBytes: 16 * 1024 * 1024, build: (id, out) => buildMenu(refuse ? closed : h.deps.db, id, out) });
    const app = createApp({ ...h.deps, menus });
    const get = () => request(app).get(menuPath(restaurant.id)).set(h.caller.headers(key));
    try {
      const refused = await get();
      expectError(refused, 503, 'service_unavailable');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      refuse = false;
      const served = await get().expect(200);
      expect(served.text).toBe((await freshBuild(restaurant.id)).body.toString());
    } finally {
      await closed.destroy();
    }
  });
});
