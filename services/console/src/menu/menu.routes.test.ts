import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ZItem, ZSection, zData } from '@partner/contracts';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { lastWriterOf, menuChangeNotesOf, outboxEventsAbout, seedItem, seedRestaurant, seedSection } from '../testing/factories.js';

const h = useAppHarness();

const createItem = (restaurantId: string, body: Record<string, unknown>) =>
  request(h.app).post(`/console/restaurants/${restaurantId}/items`).set(h.admin).send(body);
const patchItem = (id: string, body: Record<string, unknown>) => request(h.app).patch(`/console/items/${id}`).set(h.admin).send(body);
const deleteItem = (id: string) => request(h.app).delete(`/console/items/${id}`).set(h.admin);
const itemRow = (id: string) => h.deps.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();

describe('sections', () => {
  it('creates sections and lists them in position order', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const post = (body: Record<string, unknown>) =>
      request(h.app).post(`/console/restaurants/${restaurant.id}/sections`).set(h.admin).send(body);
    const desserts = await post({ name: 'Desserts', position: 2 });
    expect(desserts.status).toBe(201);
    expect(zData(ZSection).parse(desserts.body).data).toMatchObject({ name: 'Desserts', position: 2 });
    await post({ name: 'Starters', position: 0 });
    await post({ name: 'Mains', position: 1 });

    const listed = await request(h.app).get(`/console/restaurants/${restaurant.id}/sections`).set(h.admin);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((section: { name: string }) => section.name)).toEqual(['Starters', 'Mains', 'Desserts']);
  });

  it('notes a menu change in the same transaction: integrators hear of a new section through menu.updated', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const res = await request(h.app).post(`/console/restaurants/${restaurant.id}/sections`).set(h.admin).send({ name: 'Mains' });
    expect(res.status).toBe(201);
    expect(await menuChangeNotesOf(h.deps.db, restaurant.id)).toEqual([
      { writtenBy: await lastWriterOf(h.deps.db, 'sections', res.body.data.id) },
    ]);
  });

  it('refuses an invalid section, and 404s an unknown restaurant', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const post = (id: string, body: Record<string, unknown>) =>
      request(h.app).post(`/console/restaurants/${id}/sections`).set(h.admin).send(body);
    expectError(await post(restaurant.id, { name: '' }), 400, 'invalid_request', 'name');
    expectError(await post(restaurant.id, { name: 'Mains', position: -1 }), 400, 'invalid_request', 'position');
    expectError(await post('rst_unknown000000', { name: 'Mains' }), 404, 'not_found');
    expect(await menuChangeNotesOf(h.deps.db, restaurant.id)).toEqual([]);
    expectError(await request(h.app).get('/console/restaurants/rst_unknown000000/sections').set(h.admin), 404, 'not_found');
  });
});

describe('POST /console/restaurants/:id/items', () => {
  it('creates a published item by default, deriving its slug, with item.created in the same transaction', async () => {
    const restaurant = await seedRestaurant(h.deps, { currency: 'EUR' });
    const section = await seedSection(h.deps, restaurant.id);
    const menu = await h.subscribe('menu:invalidate');
    const res = await createItem(restaurant.id, {
      name: 'Crème brûlée (large)',
      priceCents: 1250,
      sectionId: section.id,
      dietaryTags: ['vegetarian'],
      allergens: ['milk', 'egg'],
    });
    expect(res.status).toBe(201);
    const item = zData(ZItem).parse(res.body).data;
    expect(item).toMatchObject({
      restaurantId: restaurant.id,
      slug: 'creme-brulee-large',
      status: 'published',
      priceCents: 1250,
      price: 12.5,
      currency: 'EUR',
      sectionId: section.id,
      dietaryTags: ['vegetarian'],
      allergens: ['milk', 'egg'],
      model: { status: 'none', updatedAt: null },
    });

    const events = await outboxEventsAbout(h.deps.db, 'itemId', item.id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'item.created',
        restaurantId: restaurant.id,
        data: { itemId: item.id, restaurantId: restaurant.id, itemSlug: 'creme-brulee-large', itemName: 'Crème brûlée (large)' },
      }),
    ]);
    // The restaurant's public menu page is rendered anew.
    expect(await menu.drain()).toEqual([{ restaurantId: restaurant.id }]);
    expect(events[0]!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'items', item.id));
  });

  it.each(['draft', 'published', 'archived'] as const)('creates a %s item', async (status) => {
    const restaurant = await seedRestaurant(h.deps);
    const res = await createItem(restaurant.id, { name: 'Soup', priceCents: 500, status });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe(status);
    expect((await itemRow(res.body.data.id))?.status).toBe(status);
  });

  it('refuses a taken slug with 409, writing no event for it', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const first = await seedItem(h.deps, restaurant.id, { slug: 'soup' });
    expectError(await createItem(restaurant.id, { name: 'Soup', priceCents: 500 }), 409, 'conflict', 'slug');
    const rows = await h.deps.db.selectFrom('items').select('id').where('restaurant_id', '=', restaurant.id).execute();
    expect(rows.map((row) => row.id)).toEqual([first.id]);
    const events = await h.deps.db.selectFrom('outbox_events').select('type').where('restaurant_id', '=', restaurant.id).execute();
    expect(events).toEqual([{ type: 'item.created' }]);

    // The same slug is free in another restaurant.
    const other = await seedRestaurant(h.deps);
    expect((await createItem(other.id, { name: 'Soup', priceCents: 500 })).status).toBe(201);
  });

  it.each([
    ['a negative price', { name: 'Soup', priceCents: -1 }, 'priceCents'],
    ['a price with cents as a fraction', { name: 'Soup', priceCents: 5.5 }, 'priceCents'],
    ['an unknown status', { name: 'Soup', priceCents: 500, status: 'hidden' }, 'status'],
    ['a malformed section id', { name: 'Soup', priceCents: 500, sectionId: 'mains' }, 'sectionId'],
    ['an unknown field', { name: 'Soup', priceCents: 500, price: 5 }, 'price'],
  ])('refuses %s with 400 invalid_request naming the field', async (_name, body, param) => {
    const restaurant = await seedRestaurant(h.deps);
    expectError(await createItem(restaurant.id, body), 400, 'invalid_request', param);
  });

  it("refuses another restaurant's section and 404s an unknown restaurant", async () => {
    const restaurant = await seedRestaurant(h.deps);
    const theirs = await seedSection(h.deps, (await seedRestaurant(h.deps)).id);
    expectError(
      await createItem(restaurant.id, { name: 'Soup', priceCents: 500, sectionId: theirs.id }),
      400,
      'invalid_request',
      'sectionId',
    );
    expectError(await createItem('rst_unknown000000', { name: 'Soup', priceCents: 500 }), 404, 'not_found');
  });
});

describe('PATCH /console/items/:id', () => {
  it('moves an item through draft, published and archived, with item.updated each time', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const item = await seedItem(h.deps, restaurant.id, { status: 'draft' });
    const access = await h.subscribe('access:invalidate');
    const menu = await h.subscribe('menu:invalidate');
    for (const status of ['published', 'archived', 'draft'] as const) {
      const res = await patchItem(item.id, { status });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(status);
      expect((await itemRow(item.id))?.status).toBe(status);
    }
    const events = await outboxEventsAbout(h.deps.db, 'itemId', item.id);
    expect(events.map((event) => event.type)).toEqual(['item.created', 'item.updated', 'item.updated', 'item.updated']);
    expect(events.at(-1)!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'items', item.id));
    expect(await access.drain()).toEqual([{ itemId: item.id }, { itemId: item.id }, { itemId: item.id }]);
    expect(await menu.drain()).toEqual(Array(3).fill({ restaurantId: restaurant.id }));
  });

  it('changes the fields given and keeps the others; null clears the section', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const section = await seedSection(h.deps, restaurant.id);
    const item = await seedItem(h.deps, restaurant.id, { sectionId: section.id, description: 'Hot.' });
    const res = await patchItem(item.id, { name: 'Soupe', priceCents: 900, allergens: ['celery'] });
    expect(res.body.data).toMatchObject({
      name: 'Soupe',
      priceCents: 900,
      allergens: ['celery'],
      description: 'Hot.',
      sectionId: section.id,
      slug: item.slug,
    });
    expect((await patchItem(item.id, { sectionId: null })).body.data.sectionId).toBeNull();
  });

  it('refuses a taken slug, bad fields and foreign sections, writing no event', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const taken = await seedItem(h.deps, restaurant.id);
    const item = await seedItem(h.deps, restaurant.id);
    const foreign = await seedSection(h.deps, (await seedRestaurant(h.deps)).id);
    expectError(await patchItem(item.id, { slug: taken.slug }), 409, 'conflict', 'slug');
    expectError(await patchItem(item.id, { status: 'deleted' }), 400, 'invalid_request', 'status');
    expectError(await patchItem(item.id, { restaurantId: restaurant.id }), 400, 'invalid_request', 'restaurantId');
    expectError(await patchItem(item.id, { sectionId: foreign.id }), 400, 'invalid_request', 'sectionId');
    expect((await outboxEventsAbout(h.deps.db, 'itemId', item.id)).map((event) => event.type)).toEqual(['item.created']);
    expect(await itemRow(item.id)).toMatchObject({ slug: item.slug, section_id: null });
  });

  it('answers 404 for an unknown item', async () => {
    expectError(await patchItem('itm_unknown000000', { name: 'x' }), 404, 'not_found');
  });
});

describe('DELETE /console/items/:id', () => {
  it('leaves a tombstone and writes item.deleted in the same transaction', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const item = await seedItem(h.deps, restaurant.id);
    const access = await h.subscribe('access:invalidate');
    const menu = await h.subscribe('menu:invalidate');
    const res = await deleteItem(item.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: item.id, deleted: true } });

    const row = await itemRow(item.id);
    expect(row?.deleted_at).toBeInstanceOf(Date);
    expect(row?.updated_at.getTime()).toBe(row?.deleted_at?.getTime());
    const events = await outboxEventsAbout(h.deps.db, 'itemId', item.id);
    expect(events.map((event) => event.type)).toEqual(['item.created', 'item.deleted']);
    expect(events[1]).toMatchObject({ restaurantId: restaurant.id, data: { itemId: item.id, itemSlug: item.slug, itemName: item.name } });
    expect(events[1]!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'items', item.id));
    expect(await access.drain()).toEqual([{ itemId: item.id }]);
    expect(await menu.drain()).toEqual([{ restaurantId: restaurant.id }]);
  });

  it('treats a deleted item as gone: 404 on delete and update, no second event, its slug free again', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const item = await seedItem(h.deps, restaurant.id, { slug: 'gone' });
    await deleteItem(item.id);
    const access = await h.subscribe('access:invalidate');
    expectError(await deleteItem(item.id), 404, 'not_found');
    // A retried delete re-sends the invalidation the first one may have lost.
    expect(await access.drain()).toEqual([{ itemId: item.id }]);
    expectError(await patchItem(item.id, { name: 'Back' }), 404, 'not_found');
    expect((await outboxEventsAbout(h.deps.db, 'itemId', item.id)).map((event) => event.type)).toEqual(['item.created', 'item.deleted']);
    expect((await createItem(restaurant.id, { name: 'Gone', slug: 'gone', priceCents: 100 })).status).toBe(201);
  });
});
