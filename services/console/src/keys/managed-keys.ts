import { derivePublishableKey, type GeneratedKey } from '@partner/auth';
import type { ApiKeyRow } from '@partner/db';
import { keyInvalidations, newId } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import { AppError } from '@partner/contracts';
import { upsertManagedKey } from './keys.repository.js';

type KeyDeps = Pick<ConsoleDeps, 'menuPageKeySecret' | 'menuPageKeyEnvironment'>;

/** The public menu page's publishable key: printed in the page, allowed from the gateway's origin only. */
export const menuPageKey = (deps: KeyDeps, restaurantId: string): GeneratedKey =>
  derivePublishableKey(deps.menuPageKeySecret, `menu-page:${restaurantId}`, deps.menuPageKeyEnvironment);

const previewKey = (deps: KeyDeps, restaurantId: string): GeneratedKey =>
  derivePublishableKey(deps.menuPageKeySecret, `dashboard-preview:${restaurantId}`, 'test');

/** The hashes of the keys the platform derives for a restaurant, and what each is for. */
export function managedKeyHashes(deps: KeyDeps, restaurantId: string): Map<string, 'menu-page' | 'dashboard-preview'> {
  return new Map([
    [menuPageKey(deps, restaurantId).hash, 'menu-page'],
    [previewKey(deps, restaurantId).hash, 'dashboard-preview'],
  ]);
}

/**
 * The dashboard's own publishable test key of a restaurant: its embeds (the 3D preview, the concierge's
 * try-it panel) run with it in the owner's browser, from the dashboard's origin only. Derived, like the
 * menu page's key, so no plaintext is stored; made (or made usable again) when first asked for.
 */
export async function dashboardPreviewKey(deps: ConsoleDeps, restaurantId: string): Promise<{ key: string; origin: string }> {
  const origin = new URL(deps.publicUrl).origin;
  const key = previewKey(deps, restaurantId);
  const revived = await upsertManagedKey(deps.db, {
    id: newId('key'),
    key_hash: key.hash,
    prefix: key.prefix,
    last4: key.last4,
    type: 'publishable',
    environment: 'test',
    name: 'Dashboard preview',
    scopes: [],
    rate_limit_per_min: 60,
    allowed_origins: [origin],
    restaurant_id: restaurantId,
    integrator_org_id: null,
  });
  // A replica may hold the key as revoked or with another origin: tell them all.
  if (revived) await keyInvalidations.publish(deps.redis, deps.redisPrefix, { ownerId: restaurantId });
  return { key: key.value, origin };
}

/** A person may not revoke a key the platform manages: the page or preview that uses it would break. */
export function refuseManagedKey(deps: KeyDeps, key: Pick<ApiKeyRow, 'restaurant_id' | 'key_hash'>): void {
  const managedBy = key.restaurant_id ? managedKeyHashes(deps, key.restaurant_id).get(key.key_hash) : undefined;
  if (managedBy === 'menu-page')
    throw new AppError('conflict', 'This key belongs to your public menu page: switch the page off to revoke it.');
  if (managedBy === 'dashboard-preview')
    throw new AppError('conflict', "This key runs the dashboard's previews and cannot be revoked here.");
}
