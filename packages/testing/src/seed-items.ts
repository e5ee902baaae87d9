import { sql } from 'kysely';
import { randomBase62 } from '@partner/auth';
import type { Executor } from '@partner/db';

export interface SeedItemsOptions {
  /** Item n goes into `sectionIds[n % length]` (null: in no section); none given: every item in none. */
  sectionIds?: (string | null)[];
  /** Rows per statement: one round trip and one menu-version bump each. */
  batchSize?: number;
}

/** Every seeded item's model file hash (the files themselves are not stored). */
export const SEEDED_MODEL_HASH = 'a'.repeat(64);

/**
 * `count` published dishes of one restaurant for benchmarks and scale tests, written by one
 * `insert ... select generate_series` statement per batch. Item n (1-based) is `idOf(n)`, named
 * `Dish number <n>`, with a description, tags, allergens and a ready model; `updated_at` steps one
 * millisecond per item and the last one is stamped now, so a full sync meets them in order of n. Ids
 * and slugs are unique to the call: a restaurant may be seeded again to grow its menu.
 */
export async function seedItems(
  db: Executor,
  restaurantId: string,
  count: number,
  options: SeedItemsOptions = {},
): Promise<{ idOf: (n: number) => string }> {
  const tag = randomBase62(8);
  const idOf = (n: number) => `itm_${tag}${String(n).padStart(12, '0')}`;
  const sections = options.sectionIds ?? [];
  const batch = options.batchSize ?? 50_000;
  const end = new Date();
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await sql`
      insert into items (id, restaurant_id, section_id, slug, name, description, price_cents, status, dietary_tags, allergens,
                         model_status, model_updated_at, model_glb_key, model_usdz_key, model_thumbnail_key, created_at, updated_at)
      select ${`itm_${tag}`} || lpad(n::text, 12, '0'), ${restaurantId},
             (${sections}::text[])[1 + n % greatest(cardinality(${sections}::text[]), 1)],
             ${`dish-${tag.toLowerCase()}-`} || n, 'Dish number ' || n, 'A generous plate of something good, number ' || n, 500 + n % 5000, 'published',
             array['vegetarian'], array['milk', 'gluten'],
             'ready', stamp, ${`${SEEDED_MODEL_HASH}.glb`}, ${`${SEEDED_MODEL_HASH}.usdz`}, ${`${SEEDED_MODEL_HASH}.png`}, stamp, stamp
      from generate_series(${from}::int, ${to}::int) as n,
           lateral (select ${end}::timestamptz - make_interval(secs => (${count} - n) / 1000.0) as stamp) as s
    `.execute(db);
  }
  return { idOf };
}
