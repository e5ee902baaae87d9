import type { KeyPrincipal } from '@partner/auth';
import { iso, presentItem, presentRestaurant } from '@partner/views';
import { listPublishedItems, listSections, menuEtag } from '@partner/db';
import { meterApiRequest, requireRestaurantAccess } from '@partner/entitlements';
import type { TMenu } from '@partner/contracts';
import type { CatalogDeps } from '../deps.js';

export type MenuAnswer = { notModified: true; etag: string } | { notModified: false; etag: string; menu: TMenu };

/** Whether an If-None-Match header names this strong ETag (or `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * The published menu with a strong ETag (spec 4.3). The ETag comes from one aggregate query, so an
 * unchanged menu answers 304 without being built, and a 304 costs no quota.
 */
export async function getMenu(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  restaurantId: string,
  ifNoneMatch: string | undefined,
): Promise<MenuAnswer> {
  const restaurant = await requireRestaurantAccess(deps.db, principal, restaurantId, 'menu:read');
  const { etag, version } = await menuEtag(deps.db, restaurantId);
  if (matchesIfNoneMatch(ifNoneMatch, etag)) return { notModified: true, etag };

  await meterApiRequest(deps.usageMeter, principal, restaurant, deps.now());
  const [sections, items] = await Promise.all([listSections(deps.db, restaurantId), listPublishedItems(deps.db, restaurantId)]);
  const present = (list: typeof items) => list.map((row) => presentItem(row, restaurant.currency));
  const known = new Set(sections.map((section) => section.id));
  const updatedAt = [version.restaurant, version.items, version.sections]
    .filter((d): d is Date => d !== null)
    .reduce((a, b) => (a > b ? a : b));
  return {
    notModified: false,
    etag,
    menu: {
      restaurant: presentRestaurant(restaurant),
      sections: sections.map((section) => ({
        id: section.id,
        name: section.name,
        position: section.position,
        items: present(items.filter((item) => item.section_id === section.id)),
      })),
      unsectionedItems: present(items.filter((item) => !item.section_id || !known.has(item.section_id))),
      updatedAt: iso(updatedAt),
    },
  };
}
