import { sql } from 'kysely';
import { type Db, menuEtag } from '@partner/db';
import type { MenuEntry } from './menu-index.js';

/** Dishes fetched from the cursor at a time: what a build holds as rows at once. */
const BATCH = 5_000;

/**
 * A restaurant's published dishes in menu order (name, then id), a batch at a time, and the ETag of the
 * menu version they are: one repeatable-read snapshot, so the ETag names exactly these dishes however
 * long the read takes; one server-side cursor, so the rows are sorted once and never all held.
 */
export async function readPublishedMenu(db: Db, restaurantId: string, onDishes: (dishes: MenuEntry[]) => void): Promise<string> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const { etag } = await menuEtag(tx, restaurantId);
      const dishes = tx
        .selectFrom('items')
        .select(['id', 'slug', 'name', 'description', 'price_cents', 'allergens', 'dietary_tags', 'model_status', 'model_thumbnail_key'])
        .where('restaurant_id', '=', restaurantId)
        .where('status', '=', 'published')
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .orderBy('id');
      await sql`declare published_dishes no scroll cursor for ${dishes}`.execute(tx);
      for (;;) {
        const { rows } = await sql<{
          id: string;
          slug: string;
          name: string;
          description: string | null;
          price_cents: number;
          allergens: string[];
          dietary_tags: string[];
          model_status: string;
          model_thumbnail_key: string | null;
        }>`fetch ${sql.raw(String(BATCH))} from published_dishes`.execute(tx);
        onDishes(
          rows.map((row) => ({
            id: row.id,
            slug: row.slug,
            name: row.name,
            description: row.description,
            priceCents: row.price_cents,
            allergens: row.allergens,
            dietaryTags: row.dietary_tags,
            thumbnailKey: row.model_status === 'ready' ? row.model_thumbnail_key : null,
          })),
        );
        if (rows.length < BATCH) return etag;
      }
    });
}
