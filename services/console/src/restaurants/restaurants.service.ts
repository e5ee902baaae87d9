import { menuPageKey } from '../keys/managed-keys.js';
import { accessInvalidations, keyInvalidations, menuInvalidations, newId } from '@partner/http';
import { billingPeriod, readUsage } from '@partner/entitlements';
import { findRestaurantById, insertMenuChangeNote, isUniqueViolation, type RestaurantUpdate } from '@partner/db';
import { insertApiKey, setMenuPageKeyRevoked } from '../keys/keys.repository.js';
import { insertRestaurant, listRestaurantRows, updateRestaurant } from './restaurants.repository.js';
import { presentConsoleRestaurant } from '../present.js';
import { AppError } from '@partner/contracts';
import type { TConsoleRestaurant, TUsage, ZCreateRestaurant, ZUpdateRestaurant } from '@partner/contracts/console';
import type { z } from 'zod';
import type { ConsoleDeps } from '../deps.js';

const menuPageKeyHash = (deps: ConsoleDeps, restaurantId: string) => menuPageKey(deps, restaurantId).hash;

export async function createRestaurant(deps: ConsoleDeps, body: z.infer<typeof ZCreateRestaurant>): Promise<TConsoleRestaurant> {
  try {
    const row = await deps.db.transaction().execute(async (tx) => {
      const created = await insertRestaurant(tx, {
        id: newId('rst'),
        name: body.name,
        slug: body.slug,
        currency: body.currency,
        public_menu_url: body.publicMenuUrl ?? null,
        house_notes: body.houseNotes ?? null,
        contact_email: body.contactEmail ?? null,
        concierge_display_name: null,
        concierge_welcome_message: null,
      });
      // The public menu page's embeds use a live publishable key that only the gateway's origin may use.
      const key = menuPageKey(deps, created.id);
      await insertApiKey(tx, {
        id: newId('key'),
        key_hash: key.hash,
        prefix: key.prefix,
        last4: key.last4,
        type: 'publishable',
        environment: deps.menuPageKeyEnvironment,
        name: 'Public menu page',
        scopes: [],
        rate_limit_per_min: 600,
        allowed_origins: [new URL(deps.publicBaseUrl).origin],
        restaurant_id: created.id,
        integrator_org_id: null,
      });
      return created;
    });
    return presentConsoleRestaurant(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', `A restaurant with slug "${body.slug}" already exists.`, { param: 'slug' });
    throw err;
  }
}

/** The restaurants given (every one when null), by name. */
export async function listRestaurants(deps: ConsoleDeps, ids: string[] | null): Promise<TConsoleRestaurant[]> {
  return (await listRestaurantRows(deps.db, ids)).map(presentConsoleRestaurant);
}

export async function getRestaurant(deps: ConsoleDeps, id: string): Promise<TConsoleRestaurant> {
  const row = await findRestaurantById(deps.db, id);
  if (!row) throw new AppError('not_found', 'No such restaurant.');
  return presentConsoleRestaurant(row);
}

export async function patchRestaurant(deps: ConsoleDeps, id: string, body: z.infer<typeof ZUpdateRestaurant>): Promise<TConsoleRestaurant> {
  const changes: RestaurantUpdate = {
    name: body.name,
    public_menu_url: body.publicMenuUrl,
    subscription_status: body.subscriptionStatus,
    partner_api_addon: body.partnerApiAddon,
    concierge_addon: body.conciergeAddon,
    concierge_enabled: body.conciergeEnabled,
    suspended: body.suspended,
    monthly_quota: body.monthlyQuota,
    overage_budget: body.overageBudget,
    concierge_allowance: body.conciergeAllowance,
    concierge_display_name: body.concierge?.displayName,
    concierge_welcome_message: body.concierge?.welcomeMessage,
    house_notes: body.houseNotes,
    contact_email: body.contactEmail,
    menu_page_enabled: body.menuPageEnabled,
  };
  const row = await deps.db.transaction().execute(async (tx) => {
    const updated = await updateRestaurant(tx, id, changes);
    if (!updated) return undefined;
    // The menu shows the restaurant: integrators hear of it through menu.updated.
    if (updated.partnerShownChanged) await insertMenuChangeNote(tx, { id: newId('evt'), restaurantId: id });
    // The page's key lives only while the page is on (it is printed in the page).
    if (body.menuPageEnabled !== undefined) {
      await setMenuPageKeyRevoked(tx, menuPageKeyHash(deps, id), body.menuPageEnabled ? null : deps.now());
    }
    return updated.row;
  });
  if (!row) throw new AppError('not_found', 'No such restaurant.');
  if (body.menuPageEnabled !== undefined) await keyInvalidations.publish(deps.redis, deps.redisPrefix, { ownerId: id });
  // Entitlements, quota and currency are cached with item lookups in the catalog, name and notes in its
  // rendered menu page; suspension is enforced at the gateway from cached key lookups: tell every replica now.
  await accessInvalidations.publish(deps.redis, deps.redisPrefix, { restaurantId: id });
  await menuInvalidations.publish(deps.redis, deps.redisPrefix, { restaurantId: id });
  if (body.suspended !== undefined) await keyInvalidations.publish(deps.redis, deps.redisPrefix, { ownerId: id });
  return presentConsoleRestaurant(row);
}

/** This billing period's API requests and concierge messages against their limits. */
export async function getUsage(deps: ConsoleDeps, id: string): Promise<TUsage> {
  const row = await findRestaurantById(deps.db, id);
  if (!row) throw new AppError('not_found', 'No such restaurant.');
  const period = billingPeriod(row.billing_anchor, deps.now());
  const [apiRequests, conciergeMessages, embedViews] = await Promise.all([
    readUsage(deps.db, id, 'api_requests', period.start),
    readUsage(deps.db, id, 'concierge_messages', period.start),
    readUsage(deps.db, id, 'embed_views', period.start),
  ]);
  return {
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    apiRequests: { used: apiRequests, included: row.monthly_quota, overageBudget: row.overage_budget },
    conciergeMessages: { used: conciergeMessages, allowance: row.concierge_allowance },
    embedViews: { used: embedViews },
  };
}
