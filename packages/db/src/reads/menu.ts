import { sql } from 'kysely';
import type { SectionRow } from '../schema.js';
import type { Executor } from './executor.js';

export async function listSections(db: Executor, restaurantId: string): Promise<SectionRow[]> {
  return db.selectFrom('sections').selectAll().where('restaurant_id', '=', restaurantId).orderBy('position').orderBy('id').execute();
}

export interface MenuItemPage {
  restaurantId: string;
  /** The section's published items, or (null) those in no section. */
  sectionId: string | null;
  /** Keyset position: the last item of the previous page. */
  after: { name: string; id: string } | null;
  limit: number;
}

/**
 * One page of a section's published items in menu order (name, id), on the items_menu_order index; the
 * caller selects what it needs of them.
 */
export function menuItemsPage(db: Executor, page: MenuItemPage) {
  let query = db
    .selectFrom('items')
    .where('restaurant_id', '=', page.restaurantId)
    .where(sql<string>`coalesce(section_id, '')`, '=', page.sectionId ?? '')
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null);
  if (page.after) query = query.where(sql<boolean>`(name, id) > (${page.after.name}, ${page.after.id})`);
  return query.orderBy('name').orderBy('id').limit(page.limit);
}
