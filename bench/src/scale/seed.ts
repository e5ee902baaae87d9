import { sql } from 'kysely';
import { seedUnlimitedKey } from '@partner/bench-kit';
import { type Db, lockForItemWrite, writeTimestamp } from '@partner/db';
import { seedItems } from '@partner/testing';

/** How many items the concierge's question matches at every size: the first 100 items name saffron. */
export const SAFFRON_ITEMS = 100;

export interface SeededMenu {
  restaurantId: string;
  /** A key of the restaurant's own that no limit stops, reading the menu and talking to the concierge. */
  auth: Record<string, string>;
  /** Moves `count` distinct items, drawn at random from the menu, to now, as edits would. */
  touch(count: number): Promise<void>;
}

/**
 * A restaurant with the concierge on and `size` published items, seeded by @partner/testing's
 * set-based seedItems; each size of a curve is a restaurant of its own in the one bench database. The
 * first SAFFRON_ITEMS items are the only ones with saffron, so a question about it matches as many
 * items at 10k as at 1M: the curve shows what the menu's size costs, not the answer's.
 */
export async function seedMenu(db: Db, size: number): Promise<SeededMenu> {
  const { restaurant, auth } = await seedUnlimitedKey(db, ['menu:read', 'concierge:chat']);
  await sql`update restaurants set concierge_addon = true, concierge_enabled = true, concierge_allowance = 2000000000
            where id = ${restaurant.id}`.execute(db);
  const { idOf } = await seedItems(db, restaurant.id, size);
  const saffron = Array.from({ length: Math.min(SAFFRON_ITEMS, size) }, (_, i) => idOf(i + 1));
  await sql`update items set name = name || ' with saffron' where id = any(${saffron})`.execute(db);
  // Settled as a live table is (hint bits set, visibility map and statistics current), so the first
  // reads after seeding do not pay for the bulk insert's aftermath.
  await sql`vacuum analyze items`.execute(db);
  return {
    restaurantId: restaurant.id,
    auth,
    async touch(count) {
      const picked = new Set<number>();
      while (picked.size < Math.min(count, size)) picked.add(1 + Math.floor(Math.random() * size));
      const ids = [...picked].map(idOf);
      // As an item write is made: under the restaurant's sync lock, stamped from the database clock.
      await db.transaction().execute(async (tx) => {
        await lockForItemWrite(tx, restaurant.id);
        await sql`update items set price_cents = price_cents + 1, updated_at = ${writeTimestamp()} where id = any(${ids})`.execute(tx);
      });
    },
  };
}
