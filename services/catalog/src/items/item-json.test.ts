import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ItemRow } from '@partner/db';
import { presentItem } from '@partner/views';
import { useAppHarness } from '../testing/app-harness.js';
import { deleteItem, seedItem, seedRestaurant, seedSection } from '../testing/factories.js';
import { itemJson } from './item-json.js';

const h = useAppHarness();

describe('an item as JSON made by Postgres', () => {
  it('is the bytes JSON.stringify writes of presentItem, and a tombstone for a deleted one', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { currency: 'JPY' });
    const section = await seedSection(h.deps.db, restaurant.id, 'Mains', 0);
    const seeded = [
      await seedItem(h.deps.db, restaurant.id, { name: 'Plain', price_cents: 1 }),
      await seedItem(h.deps.db, restaurant.id, {
        name: 'Cacio "e" pepe\n\\ \u2028 🍝 ü',
        description: 'Tab\there, a control \u0001 char',
        price_cents: 999,
        status: 'draft',
        dietary_tags: ['vegetarian', 'gluten-free'],
        allergens: ['milk'],
      }),
      await seedItem(h.deps.db, restaurant.id, { name: 'Free', price_cents: 0, status: 'archived' }),
      await seedItem(h.deps.db, restaurant.id, { name: 'Dear', price_cents: 123_456_789, section_id: section.id }),
      await seedItem(h.deps.db, restaurant.id, { name: 'Gone', price_cents: 250 }),
    ];
    // Microseconds where the database clock writes them (created_at), and a model's time.
    await sql`update items set created_at = '2026-03-04 05:06:07.891999+00', model_status = 'ready',
      model_updated_at = '2026-03-04 05:06:08.000999+00' where id = ${seeded[0]!.id}`.execute(h.deps.db);
    await deleteItem(h.deps.db, seeded[4]!.id);

    const rows = await h.deps.db
      .selectFrom('items')
      .selectAll()
      .select(itemJson(restaurant.id).as('json'))
      .where('restaurant_id', '=', restaurant.id)
      .execute();
    expect(rows).toHaveLength(seeded.length);
    for (const row of rows as (ItemRow & { json: string })[]) {
      const expected = row.deleted_at
        ? { id: row.id, object: 'item', deleted: true, updatedAt: row.updated_at.toISOString() }
        : presentItem(row, 'JPY');
      // The same bytes: keys in the same order, compact, strings escaped and numbers written alike.
      expect(row.json).toBe(JSON.stringify(expected));
    }
  });
});
