import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useAppHarness } from '../testing/app-harness.js';
import { seedRestaurant } from '../testing/factories.js';
import { purgeTombstones } from './housekeeping.repository.js';

const h = useAppHarness();

describe('purgeTombstones', () => {
  it('forgets tombstones past the retention in batches, keeping younger tombstones and live items', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const insertItems = (prefix: string, count: number, deletedAt: string | null) =>
      sql`
        insert into items (id, restaurant_id, slug, name, price_cents, status, deleted_at)
        select ${prefix} || n, ${restaurant.id}, ${prefix} || n, 'Dish', 100, 'published', ${deletedAt}::timestamptz
        from generate_series(1, ${count}) as n
      `.execute(h.deps.db);
    await insertItems('itm_old', 5_002, '2026-01-01T00:00:00Z');
    await insertItems('itm_young', 2, '2026-11-20T00:00:00Z');
    await insertItems('itm_live', 2, null);

    expect(await purgeTombstones(h.deps.db, new Date('2026-11-01T00:00:00Z'))).toBe(5_002);
    const left = await h.deps.db.selectFrom('items').select('id').where('restaurant_id', '=', restaurant.id).orderBy('id').execute();
    expect(left.map((row) => row.id)).toEqual(['itm_live1', 'itm_live2', 'itm_young1', 'itm_young2']);
  });
});
