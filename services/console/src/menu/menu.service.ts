import type { z } from 'zod';
import type { TItem, TSection } from '@partner/contracts';
import type { ZCreateItem, ZCreateSection, ZUpdateItem } from '@partner/contracts/console';
import {
  findLiveItemById,
  findSectionById,
  insertItem,
  insertSection,
  listLiveItems,
  markItemDeleted,
  updateLiveItem,
} from './menu.repository.js';
import {
  type Executor,
  findRestaurantById,
  insertMenuChangeNote,
  insertOutboxEvent,
  isUniqueViolation,
  type ItemRow,
  listSections,
  lockForItemWrite,
  type RestaurantRow,
  type SectionRow,
} from '@partner/db';
import { presentItem } from '@partner/views';
import { AppError } from '@partner/contracts';
import { accessInvalidations, menuInvalidations, newId } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';

const presentSection = (row: SectionRow): TSection => ({ id: row.id, name: row.name, position: row.position });

async function requireRestaurant(db: Executor, id: string): Promise<RestaurantRow> {
  const row = await findRestaurantById(db, id);
  if (!row) throw new AppError('not_found', 'No such restaurant.');
  return row;
}

async function requireSectionOf(db: Executor, restaurantId: string, sectionId: string): Promise<void> {
  const section = await findSectionById(db, sectionId);
  if (!section || section.restaurant_id !== restaurantId) {
    throw new AppError('invalid_request', 'sectionId: no such section in this restaurant.', { param: 'sectionId' });
  }
}

/** `Crème brûlée (large)` becomes `creme-brulee-large`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'item';
}

/**
 * Once an item change has committed: catalog replicas drop what they cached of the item (an existing
 * one: `itemId`; null for a new one) and the restaurant's rendered menu page.
 */
async function announceItemChange(deps: ConsoleDeps, target: { restaurantId: string; itemId: string | null }): Promise<void> {
  if (target.itemId) await accessInvalidations.publish(deps.redis, deps.redisPrefix, { itemId: target.itemId });
  await menuInvalidations.publish(deps.redis, deps.redisPrefix, { restaurantId: target.restaurantId });
}

/** Writes an item change and its event in one transaction, holding the restaurant's sync lock, then announces it. */
export async function writeItemChange<T>(
  deps: ConsoleDeps,
  target: { restaurantId: string; itemId: string | null },
  change: (tx: Executor) => Promise<T>,
): Promise<T> {
  const result = await deps.db.transaction().execute(async (tx) => {
    await lockForItemWrite(tx, target.restaurantId);
    return change(tx);
  });
  await announceItemChange(deps, target);
  return result;
}

/** An item or model event in the outbox; `model.failed` carries the reason besides the item. */
export async function recordItemEvent(
  tx: Executor,
  type: 'item.created' | 'item.updated' | 'item.deleted' | 'model.ready' | 'model.failed',
  row: ItemRow,
  options: { reason?: string; publishedBefore?: boolean } = {},
): Promise<void> {
  const { reason, publishedBefore = row.status === 'published' } = options;
  await insertOutboxEvent(tx, {
    id: newId('evt'),
    type,
    restaurantId: row.restaurant_id,
    data: {
      itemId: row.id,
      restaurantId: row.restaurant_id,
      itemSlug: row.slug,
      itemName: row.name,
      ...(reason === undefined ? {} : { reason }),
    },
    // A draft is the restaurant's business alone; a dish leaving the menu is still news to integrators.
    touchesPublishedMenu: publishedBefore || row.status === 'published',
  });
}

const slugTaken = (slug: string) =>
  new AppError('conflict', `An item with slug "${slug}" already exists in this restaurant.`, { param: 'slug' });

export async function createSection(deps: ConsoleDeps, restaurantId: string, body: z.infer<typeof ZCreateSection>): Promise<TSection> {
  await requireRestaurant(deps.db, restaurantId);
  const row = await deps.db.transaction().execute(async (tx) => {
    const section = await insertSection(tx, { id: newId('sec'), restaurant_id: restaurantId, name: body.name, position: body.position });
    // The menu lists every section, an empty one too: integrators hear of it through menu.updated.
    await insertMenuChangeNote(tx, { id: newId('evt'), restaurantId });
    return section;
  });
  return presentSection(row);
}

export async function getSections(deps: ConsoleDeps, restaurantId: string): Promise<TSection[]> {
  await requireRestaurant(deps.db, restaurantId);
  return (await listSections(deps.db, restaurantId)).map(presentSection);
}

/** The dashboard's menu: every live item (draft, published, archived), `limit` at a time. */
export async function getItems(deps: ConsoleDeps, restaurantId: string, page: { after?: string; limit: number }) {
  const restaurant = await requireRestaurant(deps.db, restaurantId);
  const rows = await listLiveItems(deps.db, restaurantId, page);
  return {
    data: rows.map((row) => presentItem(row, restaurant.currency)),
    meta: { nextAfter: rows.length === page.limit ? rows.at(-1)!.id : null },
  };
}

export async function createItem(deps: ConsoleDeps, restaurantId: string, body: z.infer<typeof ZCreateItem>): Promise<TItem> {
  const restaurant = await requireRestaurant(deps.db, restaurantId);
  if (body.sectionId) await requireSectionOf(deps.db, restaurantId, body.sectionId);
  const slug = body.slug ?? slugify(body.name);
  try {
    const row = await writeItemChange(deps, { restaurantId, itemId: null }, async (tx) => {
      const created = await insertItem(tx, {
        id: newId('itm'),
        restaurant_id: restaurantId,
        section_id: body.sectionId ?? null,
        slug,
        name: body.name,
        description: body.description ?? null,
        price_cents: body.priceCents,
        status: body.status,
        dietary_tags: body.dietaryTags,
        allergens: body.allergens,
      });
      await recordItemEvent(tx, 'item.created', created, { publishedBefore: false });
      return created;
    });
    return presentItem(row, restaurant.currency);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
}

export async function updateItem(deps: ConsoleDeps, itemId: string, body: z.infer<typeof ZUpdateItem>): Promise<TItem> {
  const existing = await findLiveItemById(deps.db, itemId);
  if (!existing) throw new AppError('not_found', 'No such item.');
  if (body.sectionId) await requireSectionOf(deps.db, existing.restaurant_id, body.sectionId);
  const restaurant = await requireRestaurant(deps.db, existing.restaurant_id);
  try {
    const row = await writeItemChange(deps, { restaurantId: existing.restaurant_id, itemId }, async (tx) => {
      // Read again under the sync lock: the status the change replaces, not the one read before it.
      const before = await findLiveItemById(tx, itemId);
      const updated = await updateLiveItem(tx, itemId, {
        name: body.name,
        slug: body.slug,
        description: body.description,
        price_cents: body.priceCents,
        status: body.status,
        section_id: body.sectionId,
        dietary_tags: body.dietaryTags,
        allergens: body.allergens,
      });
      if (!before || !updated) throw new AppError('not_found', 'No such item.');
      await recordItemEvent(tx, 'item.updated', updated, { publishedBefore: before.status === 'published' });
      return updated;
    });
    return presentItem(row, restaurant.currency);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(body.slug ?? existing.slug);
    throw err;
  }
}

/** Deleting leaves a tombstone that incremental sync reports; the item is gone from everything else. */
export async function deleteItem(deps: ConsoleDeps, itemId: string): Promise<{ id: string; deleted: true }> {
  const existing = await findLiveItemById(deps.db, itemId);
  if (!existing) {
    // The retry of a delete that committed but whose invalidation never went out lands here: send it now,
    // or catalog replicas would serve the deleted item from their caches until the entries expire.
    await accessInvalidations
      .publish(deps.redis, deps.redisPrefix, { itemId })
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not resend the invalidation of a deleted item'));
    throw new AppError('not_found', 'No such item.');
  }
  const row = await writeItemChange(deps, { restaurantId: existing.restaurant_id, itemId }, async (tx) => {
    const deleted = await markItemDeleted(tx, itemId);
    if (!deleted) throw new AppError('not_found', 'No such item.');
    await recordItemEvent(tx, 'item.deleted', deleted);
    return deleted;
  });
  return { id: row.id, deleted: true };
}
