import { sql } from 'kysely';
import type { Db } from '@partner/db';

// Set-based seeding (`insert ... select ... from generate_series`) in batches, so that 1M items take
// seconds, not hours. Items are numbered: growing the menu from `from` to `to` adds items `from + 1` to
// `to`, so the sizes of a curve are reached one after another on one database.

const BATCH = 250_000;

async function inBatches(from: number, to: number, insert: (first: number, last: number) => Promise<unknown>): Promise<void> {
  for (let first = from + 1; first <= to; first += BATCH) await insert(first, Math.min(to, first + BATCH - 1));
}

export const itemId = (n: number) => `itm_bench${String(n).padStart(12, '0')}`;

/** How many items the concierge's question matches at every size: items 1 to 100 name saffron. */
export const SAFFRON_ITEMS = 100;

/**
 * Published items `from + 1` to `to` of a restaurant, each with a ready model, updated in the past in
 * numbering order. Items 1 to SAFFRON_ITEMS are the only ones with saffron, so a question about it
 * matches as many items at 10k as at 1M: the curve shows what the menu's size costs, not the answer's.
 */
export async function seedItems(db: Db, restaurantId: string, from: number, to: number): Promise<void> {
  const hash = 'a'.repeat(64);
  await inBatches(from, to, (first, last) =>
    sql`
      insert into items (id, restaurant_id, slug, name, description, price_cents, status, dietary_tags, allergens,
                         model_status, model_glb_key, model_usdz_key, model_thumbnail_key, created_at, updated_at)
      select 'itm_bench' || lpad(n::text, 12, '0'), ${restaurantId}, 'dish-' || n,
             'Dish ' || n || ' with ' || case when n <= ${SAFFRON_ITEMS} then 'saffron'
                                              else (array['tomato', 'basil', 'salmon', 'tofu', 'mushroom'])[1 + n % 5] end,
             'Slow-cooked, served with seasonal greens, number ' || n, 500 + n % 5000, 'published',
             array['vegetarian'], array['milk', 'gluten'],
             'ready', ${`${hash}.glb`}, ${`${hash}.usdz`}, ${`${hash}.png`},
             now() - interval '1 day' + make_interval(secs => n / 1000000.0),
             now() - interval '1 day' + make_interval(secs => n / 1000000.0)
      from generate_series(${first}::int, ${last}::int) as n
    `.execute(db),
  );
  await sql`analyze items`.execute(db);
}

/** Moves `count` items (spread over the restaurant) to now, as an edit would: what an incremental sync picks up. */
export async function touchItems(db: Db, restaurantId: string, size: number, count: number): Promise<void> {
  const stride = Math.max(1, Math.floor(size / count));
  const offset = 1 + Math.floor(Math.random() * stride);
  await sql`
    update items set price_cents = price_cents + 1, updated_at = now()
    where id in (select 'itm_bench' || lpad((${offset} + i * ${stride})::text, 12, '0') from generate_series(0, ${count - 1}) as i)
      and restaurant_id = ${restaurantId}
  `.execute(db);
}
