import { createHash, randomBytes } from 'node:crypto';
import type { OwnerRef } from '@partner/auth';
import { type AssetKind, type AssetStorage, assetStorageKey } from '@partner/assets';
import { type Executor, type ItemRow, type NewItem, type NewRestaurant, writeTimestamp } from '@partner/db';
import type { UsageMetric } from '@partner/entitlements';
import { newId } from '@partner/http';
import { insertItem, insertRestaurant } from '@partner/testing';

// Catalog reads tables console owns: tests arrange those rows directly (console is not running) and
// write model files through the same AssetStorage the catalog reads them from.

/** A restaurant with an active subscription and the Partner API add-on unless `overrides` say otherwise. */
export async function seedRestaurant(db: Executor, overrides: Partial<NewRestaurant> = {}) {
  const id = newId('rst');
  const restaurant = await insertRestaurant(db, {
    id,
    name: 'Osteria Prova',
    slug: id.toLowerCase(),
    currency: 'EUR',
    ...overrides,
  });
  const owner: OwnerRef = { kind: 'restaurant', id: restaurant.id };
  return { restaurant, owner };
}

type ItemFields = Omit<NewItem, 'id' | 'restaurant_id' | 'created_at' | 'updated_at'>;

/**
 * Item writes return once the clock has left their millisecond: a sync window closing in that very
 * millisecond ends just before it (the write belongs to the next window), and a test listing right
 * after a write expects to see it.
 */
async function stamped(write: Promise<ItemRow>): Promise<ItemRow> {
  const row = await write;
  await new Promise((resolve) => setTimeout(resolve, 2));
  return row;
}

/** A published dish of the restaurant, stamped from the database clock. */
export async function seedItem(db: Executor, restaurantId: string, overrides: Partial<ItemFields> = {}): Promise<ItemRow> {
  const name = overrides.name ?? `Dish ${randomBytes(3).toString('hex')}`;
  return stamped(
    insertItem(db, {
      id: newId('itm'),
      restaurant_id: restaurantId,
      section_id: null,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      name,
      description: null,
      price_cents: 1250,
      status: 'published',
      dietary_tags: [],
      allergens: [],
      ...overrides,
    }),
  );
}

/** An item write as console makes it: the stamp from the database clock, so incremental sync sees it. */
export async function touchItem(db: Executor, id: string, changes: Partial<ItemFields> = {}): Promise<ItemRow> {
  return stamped(
    db
      .updateTable('items')
      .set({ ...changes, updated_at: writeTimestamp() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export const deleteItem = (db: Executor, id: string) => touchItem(db, id, { deleted_at: new Date() });

export async function seedSection(db: Executor, restaurantId: string, name: string, position: number) {
  return db
    .insertInto('sections')
    .values({ id: newId('sec'), restaurant_id: restaurantId, name, position })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An integrator org holding a grant (active unless told) on each restaurant; the owner its keys carry. */
export async function seedIntegrator(
  db: Executor,
  grants: { restaurantId: string; scopes?: string[]; status?: 'active' | 'revoked' }[],
): Promise<OwnerRef> {
  const id = newId('org');
  await db.insertInto('integrator_orgs').values({ id, name: 'Delivery Hub', slug: id.toLowerCase() }).execute();
  for (const grant of grants) {
    await db
      .insertInto('grants')
      .values({
        id: newId('grt'),
        restaurant_id: grant.restaurantId,
        integrator_org_id: id,
        scopes: grant.scopes ?? ['menu:read', 'assets:read'],
        status: grant.status ?? 'active',
        revoked_at: grant.status === 'revoked' ? new Date() : null,
      })
      .execute();
  }
  return { kind: 'integrator', id };
}

/** Model files as an upload leaves them: content-addressed in storage, their keys for the item row. */
export async function storeModelFiles(storage: AssetStorage) {
  const file = async (kind: AssetKind, magic: string) => {
    const bytes = Buffer.concat([Buffer.from(magic, 'binary'), randomBytes(64)]);
    const key = assetStorageKey(createHash('sha256').update(bytes).digest('hex'), kind);
    await storage.put(key, bytes);
    return { key, bytes };
  };
  const [glb, usdz, thumbnail] = await Promise.all([file('glb', 'glTF'), file('usdz', 'PK\x03\x04'), file('png', '\x89PNG\r\n\x1a\n')]);
  return {
    glb,
    usdz,
    thumbnail,
    /** The item columns of a ready model with these files. */
    columns: {
      model_status: 'ready' as const,
      model_updated_at: new Date(),
      model_glb_key: glb.key,
      model_usdz_key: usdz.key,
      model_thumbnail_key: thumbnail.key,
    },
  };
}

/** The restaurant's usage counters of one metric (API requests unless told), one row per billing period. */
export async function usageCounters(db: Executor, restaurantId: string, metric: UsageMetric = 'api_requests') {
  return db
    .selectFrom('usage_counters')
    .select(['period_start', 'used'])
    .where('restaurant_id', '=', restaurantId)
    .where('metric', '=', metric)
    .orderBy('period_start')
    .execute();
}

/** Everything of a metric counted for the restaurant, whatever the period. */
export async function usageCounted(db: Executor, restaurantId: string, metric: UsageMetric): Promise<number> {
  return (await usageCounters(db, restaurantId, metric)).reduce((sum, row) => sum + row.used, 0);
}

/** Every API request counted for the restaurant, whatever the period. */
export const apiRequestsUsed = (db: Executor, restaurantId: string): Promise<number> => usageCounted(db, restaurantId, 'api_requests');
