import { describe, expect, it } from 'vitest';
import { keyPrincipalFor, updateRestaurant } from '@partner/testing';
import { expectError, expectGuarded, testKey, useAppHarness } from '../testing/app-harness.js';
import { apiRequestsUsed, deleteItem, seedIntegrator, seedItem, seedRestaurant, seedSection, touchItem } from '../testing/factories.js';

const h = useAppHarness();
const menuPath = (restaurantId: string) => `/v1/partner/restaurants/${restaurantId}/menu`;

/** Two sections (given out of order), dishes in and out of them, a draft and a deleted dish. */
async function seedMenu(overrides: Parameters<typeof seedRestaurant>[1] = {}) {
  const { restaurant, owner } = await seedRestaurant(h.deps.db, overrides);
  const desserts = await seedSection(h.deps.db, restaurant.id, 'Desserts', 2);
  const starters = await seedSection(h.deps.db, restaurant.id, 'Starters', 1);
  const dish = (name: string, section: { id: string } | null, status: 'published' | 'draft' = 'published') =>
    seedItem(h.deps.db, restaurant.id, { name, section_id: section?.id ?? null, status });
  const items = {
    suppli: await dish('Supplì', starters),
    bruschetta: await dish('Bruschetta', starters),
    tiramisu: await dish('Tiramisu', desserts),
    water: await dish('Still water', null),
    draft: await dish('Secret special', starters, 'draft'),
    deleted: await dish('Old special', desserts),
  };
  await deleteItem(h.deps.db, items.deleted.id);
  return { restaurant, owner, key: keyPrincipalFor(owner), sections: { starters, desserts }, items };
}

const names = (items: { name: string }[]) => items.map((item) => item.name);

describe('GET /v1/partner/restaurants/{id}/menu', () => {
  it('lets only the gateway in', async () => {
    const { restaurant, key } = await seedMenu();
    await expectGuarded(h, 'get', menuPath(restaurant.id), key);
  });

  it('answers the published menu by section, with a strong ETag', async () => {
    const { restaurant, key, sections, items } = await seedMenu();
    const res = await h.get(menuPath(restaurant.id), key).expect(200);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const menu = res.body.data;
    expect(menu.restaurant).toMatchObject({ id: restaurant.id, name: 'Osteria Prova', currency: 'EUR' });
    expect(menu.sections.map((s: { id: string; name: string; position: number }) => [s.id, s.name, s.position])).toEqual([
      [sections.starters.id, 'Starters', 1],
      [sections.desserts.id, 'Desserts', 2],
    ]);
    expect(names(menu.sections[0].items)).toEqual(['Bruschetta', 'Supplì']);
    expect(names(menu.sections[1].items)).toEqual(['Tiramisu']);
    expect(names(menu.unsectionedItems)).toEqual(['Still water']);
    expect(menu.sections[0].items[0]).toMatchObject({ id: items.bruschetta.id, sectionId: sections.starters.id, status: 'published' });
    const latest = await h.deps.db
      .selectFrom('items')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('restaurant_id', '=', restaurant.id)
      .executeTakeFirstOrThrow();
    expect(menu.updatedAt).toBe(new Date(latest.at).toISOString());
  });

  it('answers 304 to a matching If-None-Match without counting quota, even with none left', async () => {
    const { restaurant, key } = await seedMenu({ monthly_quota: 1 });
    const first = await h.get(menuPath(restaurant.id), key).expect(200);
    const etag: string = first.headers.etag!;
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    for (const header of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
      const res = await h.get(menuPath(restaurant.id), key).set('If-None-Match', header);
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(etag);
      expect(res.text ?? '').toBe('');
    }
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);
    expectError(await h.get(menuPath(restaurant.id), key).set('If-None-Match', '"stale"'), 429, 'quota_exceeded');
  });

  it('counts one unit per full menu for a live key and none for a test key', async () => {
    const { restaurant, owner, key } = await seedMenu();
    await h.get(menuPath(restaurant.id), key).expect(200);
    await h.get(menuPath(restaurant.id), key).expect(200);
    await h.get(menuPath(restaurant.id), testKey(owner)).expect(200);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
  });

  it.each([
    ['an item is edited', ({ items }: Menu) => touchItem(h.deps.db, items.tiramisu.id, { price_cents: 990 })],
    // Stamped before the latest write, as a write that committed late is: neither max(updated_at) nor the count moves.
    [
      'an item lands with an older stamp',
      ({ items }: Menu) =>
        h.deps.db
          .updateTable('items')
          .set({ updated_at: new Date(items.suppli.updated_at.getTime() - 1) })
          .where('id', '=', items.suppli.id)
          .execute(),
    ],
    ['an item is deleted', ({ items }: Menu) => deleteItem(h.deps.db, items.water.id)],
    ['an item is added', ({ restaurant }: Menu) => seedItem(h.deps.db, restaurant.id)],
    ['an item is unpublished', ({ items }: Menu) => touchItem(h.deps.db, items.suppli.id, { status: 'draft' })],
    ['a draft is published', ({ items }: Menu) => touchItem(h.deps.db, items.draft.id, { status: 'published' })],
    ['a model starts processing', ({ items }: Menu) => touchItem(h.deps.db, items.tiramisu.id, { model_status: 'processing' })],
    ['an item moves section', ({ items, sections }: Menu) => touchItem(h.deps.db, items.water.id, { section_id: sections.desserts.id })],
    ['a section is added', ({ restaurant }: Menu) => seedSection(h.deps.db, restaurant.id, 'Mains', 3)],
    [
      'a section is renamed',
      ({ sections }: Menu) => h.deps.db.updateTable('sections').set({ name: 'Dolci' }).where('id', '=', sections.desserts.id).execute(),
    ],
    // Its items fall out of it (on delete set null): a change of the items too, in the same statement.
    ['a section is deleted', ({ sections }: Menu) => h.deps.db.deleteFrom('sections').where('id', '=', sections.desserts.id).execute()],
    [
      'the restaurant changes',
      ({ restaurant }: Menu) => updateRestaurant(h.deps.db, restaurant.id, { name: 'Osteria Nuova', updated_at: new Date() }),
    ],
    // Even written without a new updated_at: the ETag covers the fields the menu shows.
    ['the restaurant is renamed', ({ restaurant }: Menu) => updateRestaurant(h.deps.db, restaurant.id, { name: 'Osteria Nuova' })],
    ["the restaurant's currency changes", ({ restaurant }: Menu) => updateRestaurant(h.deps.db, restaurant.id, { currency: 'CHF' })],
  ])('changes the ETag when %s', async (_case, change) => {
    const menu = await seedMenu();
    const before = await h.get(menuPath(menu.restaurant.id), menu.key).expect(200);
    await change(menu);
    const res = await h.get(menuPath(menu.restaurant.id), menu.key).set('If-None-Match', before.headers.etag!).expect(200);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    expect(res.text).not.toBe(before.text);
    expect(await apiRequestsUsed(h.deps.db, menu.restaurant.id)).toBe(2);
  });

  // Drafts, archived dishes and tombstones are not in the menu (its bytes do not move), nor are the
  // restaurant's settings that the menu does not show. Before menu versions a draft's edit moved the
  // ETag too, and cost every client holding the menu a full fetch of an unchanged one.
  it.each([
    ['a draft is edited', ({ items }: Menu) => touchItem(h.deps.db, items.draft.id, { name: 'Still secret' })],
    ['a draft is added', ({ restaurant }: Menu) => seedItem(h.deps.db, restaurant.id, { status: 'draft' })],
    ['a draft is deleted', ({ items }: Menu) => deleteItem(h.deps.db, items.draft.id)],
    ['a tombstone is purged', ({ items }: Menu) => h.deps.db.deleteFrom('items').where('id', '=', items.deleted.id).execute()],
    [
      "the restaurant's quota and notes change",
      ({ restaurant }: Menu) => updateRestaurant(h.deps.db, restaurant.id, { monthly_quota: 50_000, house_notes: 'Closed on Mondays' }),
    ],
    ['usage is counted', ({ restaurant, key }: Menu) => h.get(menuPath(restaurant.id), key).expect(200)],
  ])('keeps the ETag when %s', async (_case, change) => {
    const menu = await seedMenu();
    const before = await h.get(menuPath(menu.restaurant.id), menu.key).expect(200);
    await change(menu);
    await h.get(menuPath(menu.restaurant.id), menu.key).set('If-None-Match', before.headers.etag!).expect(304);
    expect((await h.get(menuPath(menu.restaurant.id), menu.key).expect(200)).text).toBe(before.text);
  });

  it('refuses a lapsed restaurant even with a matching ETag', async () => {
    const { restaurant, key } = await seedMenu();
    const etag = (await h.get(menuPath(restaurant.id), key).expect(200)).headers.etag!;
    await updateRestaurant(h.deps.db, restaurant.id, { subscription_status: 'lapsed' });
    expectError(await h.get(menuPath(restaurant.id), key).set('If-None-Match', etag), 403, 'subscription_inactive');
  });

  it("answers 404 for another restaurant's menu and 403 for a grant without menu:read", async () => {
    const mine = await seedMenu();
    const theirs = await seedMenu();
    expectError(await h.get(menuPath(theirs.restaurant.id), mine.key), 404, 'not_found');
    const integrator = keyPrincipalFor(await seedIntegrator(h.deps.db, [{ restaurantId: theirs.restaurant.id, scopes: ['assets:read'] }]));
    expectError(await h.get(menuPath(theirs.restaurant.id), integrator), 403, 'forbidden_scope');
  });
});

type Menu = Awaited<ReturnType<typeof seedMenu>>;
