import type { KeyPrincipal } from '@partner/auth';
import { menuEtagOf } from '@partner/db';
import { meterApiRequest, requireRestaurantAccess } from '@partner/entitlements';
import { AppError } from '@partner/contracts';
import type { CatalogDeps } from '../deps.js';
import type { MenuBytes } from './menu-cache.js';

export type MenuAnswer = { notModified: true; etag: string } | ({ notModified: false } & MenuBytes);

/** Whether an If-None-Match header names this strong ETag (or `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * The published menu with a strong ETag (spec 4.3). The ETag comes from the restaurant's row, which
 * the access check reads anyway (one read for concurrent requests of one owner, CoalescedReads): an
 * unchanged menu answers 304 without reading an item, and costs no quota. A changed one is built once
 * per version and served from bytes after that (MenuCache).
 */
export async function getMenu(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  restaurantId: string,
  ifNoneMatch: string | undefined,
): Promise<MenuAnswer> {
  const { owner } = principal;
  const restaurant = await deps.menuAccess.read(`${owner.kind}:${owner.id}:${restaurantId}`, () =>
    requireRestaurantAccess(deps.db, principal, restaurantId, 'menu:read'),
  );
  const etag = menuEtagOf(restaurant);
  if (matchesIfNoneMatch(ifNoneMatch, etag)) return { notModified: true, etag };
  if (restaurant.menu_item_count > deps.menuMaxItems) {
    throw new AppError(
      'menu_too_large',
      `This menu has ${restaurant.menu_item_count} published items, more than the ${deps.menuMaxItems} one answer carries. ` +
        'Read it with the paginated items listing (GET /v1/partner/restaurants/{id}/items) instead.',
    );
  }
  await meterApiRequest(deps.usageMeter, principal, restaurant, deps.now());
  return { notModified: false, ...(await deps.menus.get(restaurantId, etag)) };
}
