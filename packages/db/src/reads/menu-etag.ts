import { createHash } from 'node:crypto';
import type { RestaurantRow } from '../schema.js';
import type { Executor } from './executor.js';

/** What the menu's ETag covers (the restaurant's fields the menu shows, the menu's version), and its size. */
const MENU_VERSION_COLUMNS = [
  'id',
  'name',
  'slug',
  'currency',
  'public_menu_url',
  'created_at',
  'updated_at',
  'menu_version',
  'menu_updated_at',
  'menu_item_count',
] as const;
export type MenuVersion = Pick<RestaurantRow, (typeof MENU_VERSION_COLUMNS)[number]>;

/**
 * The menu's strong ETag from its restaurant's row: the version moves with every change to the sections
 * and published items (triggers, migration 2026-12-02-menu-version), the other fields are the
 * restaurant as the menu shows it (its currency is every item's too). No item is read.
 */
export function menuEtagOf(row: MenuVersion | undefined): string {
  const covered = row && [
    row.id,
    row.name,
    row.slug,
    row.currency,
    row.public_menu_url,
    row.created_at.toISOString(),
    row.updated_at.toISOString(),
    row.menu_version,
  ];
  return `"${createHash('sha256')
    .update(JSON.stringify(covered ?? null))
    .digest('base64url')
    .slice(0, 27)}"`;
}

/** The menu's strong ETag, from one row: shared by the menu route, the concierge's index and menu.updated events. */
export async function menuEtag(db: Executor, restaurantId: string): Promise<{ etag: string; version: MenuVersion | undefined }> {
  const version = await db.selectFrom('restaurants').select(MENU_VERSION_COLUMNS).where('id', '=', restaurantId).executeTakeFirst();
  return { etag: menuEtagOf(version), version };
}
