import type { OwnerRef } from '@partner/auth';
import { type Executor, type NewRestaurant, PLATFORM_SETTING_KEYS } from '@partner/db';
import { newId } from '@partner/http';
import { insertItem, insertRestaurant } from '@partner/testing';

/**
 * A restaurant whose concierge is servable unless `overrides` say otherwise, with two published dishes
 * and a draft one, owned by a restaurant key (`owner`).
 */
export async function seedRestaurant(db: Executor, overrides: Partial<NewRestaurant> = {}) {
  const id = newId('rst');
  const restaurant = await insertRestaurant(db, {
    id,
    name: 'Trattoria Prova',
    slug: id.toLowerCase(),
    currency: 'EUR',
    house_notes: 'The kitchen closes at 22:00.',
    concierge_addon: true,
    concierge_enabled: true,
    ...overrides,
  });
  const dish = (
    name: string,
    fields: { price_cents: number; status?: 'published' | 'draft'; allergens?: string[]; description?: string },
  ) =>
    insertItem(db, {
      id: newId('itm'),
      restaurant_id: restaurant.id,
      section_id: null,
      slug: name.toLowerCase().replace(/\s+/g, '-'),
      name,
      description: fields.description ?? null,
      price_cents: fields.price_cents,
      status: fields.status ?? 'published',
      dietary_tags: [],
      allergens: fields.allergens ?? [],
    });
  const tiramisu = await dish('Tiramisu', {
    price_cents: 900,
    allergens: ['milk', 'eggs', 'gluten'],
    description: 'Mascarpone, espresso, cocoa',
  });
  const soup = await dish('Tomato soup', { price_cents: 700 });
  const draft = await dish('Truffle risotto', { price_cents: 2400, status: 'draft' });
  const owner: OwnerRef = { kind: 'restaurant', id: restaurant.id };
  return { restaurant, owner, tiramisu, soup, draft };
}

/** An integrator org with a grant on the restaurant; the owner ref its keys carry. */
export async function grantIntegrator(
  db: Executor,
  restaurantId: string,
  grant: { scopes: string[]; status?: 'active' | 'revoked' },
): Promise<OwnerRef> {
  const orgId = newId('org');
  await db.insertInto('integrator_orgs').values({ id: orgId, name: 'Menu Apps Ltd', slug: orgId.toLowerCase() }).execute();
  await db
    .insertInto('grants')
    .values({
      id: newId('grt'),
      restaurant_id: restaurantId,
      integrator_org_id: orgId,
      scopes: grant.scopes,
      status: grant.status ?? 'active',
      revoked_at: grant.status === 'revoked' ? new Date() : null,
    })
    .execute();
  return { kind: 'integrator', id: orgId };
}

/** Console's platform kill switch, as console writes it. */
export async function setKillSwitch(db: Executor, on: boolean): Promise<void> {
  const value = JSON.stringify(on);
  await db
    .insertInto('platform_settings')
    .values({ key: PLATFORM_SETTING_KEYS.conciergeKillSwitch, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
    .execute();
}

/** Every usage counter row of the restaurant. */
export async function usageRows(db: Executor, restaurantId: string) {
  return db
    .selectFrom('usage_counters')
    .select(['metric', 'period_start', 'used'])
    .where('restaurant_id', '=', restaurantId)
    .orderBy('metric')
    .execute();
}
