import { sql } from 'kysely';
import type { ItemRow } from '../schema.js';
import type { Executor } from './executor.js';
import type { Owner } from './restaurants.js';

export interface ItemPage {
  restaurantId: string;
  /** Exclusive lower bound: the previous window's end (incremental sync), or null for a full listing. */
  windowStart: Date | null;
  /** Inclusive upper bound, fixed when the listing began. */
  windowEnd: Date;
  status: string | null;
  /** Keyset position: the last row of the previous page. */
  after: { updatedAt: Date; id: string } | null;
  limit: number;
}

/**
 * One page of a restaurant's items in `(updatedAt, id)` order within a sync window. A full listing sees
 * live items only; an incremental one also sees deletions (rows with `deleted_at`), as tombstones.
 */
export async function listItemsInWindow(db: Executor, page: ItemPage): Promise<ItemRow[]> {
  return itemsInWindow(db, page).selectAll().execute();
}

/** `listItemsInWindow`'s query before its select list: for a reader that selects what it shows. */
export function itemsInWindow(db: Executor, page: ItemPage) {
  let query = db.selectFrom('items').where('restaurant_id', '=', page.restaurantId).where('updated_at', '<=', page.windowEnd);
  if (page.windowStart) query = query.where('updated_at', '>', page.windowStart);
  else query = query.where('deleted_at', 'is', null);
  if (page.status) query = query.where('status', '=', page.status as ItemRow['status']);
  if (page.after) {
    const { updatedAt, id } = page.after;
    query = query.where(sql<boolean>`(updated_at, id) > (${updatedAt}, ${id})`);
  }
  return query.orderBy('updated_at').orderBy('id').limit(page.limit);
}

/**
 * A live item the owner reaches, with what entitlement checks need of its restaurant and the
 * integrator's grant scopes (null for the restaurant's own keys): one query on the item-detail path.
 */
export async function findLiveItemForOwner(db: Executor, owner: Owner, id: string) {
  const base = db
    .selectFrom('items')
    .innerJoin('restaurants as r', 'r.id', 'items.restaurant_id')
    .selectAll('items')
    .select([
      'r.currency',
      'r.public_menu_url',
      'r.subscription_status',
      'r.partner_api_addon',
      'r.billing_anchor',
      'r.monthly_quota',
      'r.overage_budget',
    ])
    .where('items.id', '=', id)
    .where('items.deleted_at', 'is', null);
  const row =
    owner.kind === 'restaurant'
      ? await base
          .select(sql<string[] | null>`null`.as('grant_scopes'))
          .where('items.restaurant_id', '=', owner.id)
          .executeTakeFirst()
      : await base
          .innerJoin('grants as g', (join) =>
            join
              .onRef('g.restaurant_id', '=', 'items.restaurant_id')
              .on('g.integrator_org_id', '=', owner.id)
              .on('g.status', '=', 'active'),
          )
          .select('g.scopes as grant_scopes')
          .executeTakeFirst();
  if (!row) return undefined;
  const {
    currency,
    public_menu_url,
    subscription_status,
    partner_api_addon,
    billing_anchor,
    monthly_quota,
    overage_budget,
    grant_scopes,
    ...item
  } = row;
  return {
    item,
    currency,
    publicMenuUrl: public_menu_url,
    restaurant: { id: item.restaurant_id, subscription_status, partner_api_addon, billing_anchor, monthly_quota, overage_budget },
    grantScopes: grant_scopes,
  };
}

/** Published items of a restaurant, in section order then name, for the menu. */
export async function listPublishedItems(db: Executor, restaurantId: string): Promise<ItemRow[]> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Which of these items are published now (deleted ones keep their last status). */
export async function findPublishedItemIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('items').select('id').where('id', 'in', ids).where('status', '=', 'published').execute();
  return new Set(rows.map((row) => row.id));
}
