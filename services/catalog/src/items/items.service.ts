import type { KeyPrincipal } from '@partner/auth';
import { isId, type TAssetUrls, type TAssets, type TItem, type TItemDetail, type TTombstone } from '@partner/contracts';
import { closeSyncWindow, findLiveItemForOwner, iso, listItemsInWindow, presentItem, type ItemRow } from '@partner/db';
import { AppError } from '@partner/kit';
import { decodeListCursor, encodeListCursor, meterApiRequest, requireEntitlement, requireRestaurantAccess } from '@partner/platform';
import type { CatalogDeps } from '../deps.js';
import { TOMBSTONE_RETENTION_MS } from './tombstone-purge.js';

export interface ItemListQuery {
  limit: number;
  cursor?: string;
  updatedAfter?: Date;
  status?: TItem['status'];
}

export interface ItemListPage {
  data: (TItem | TTombstone)[];
  meta: { nextCursor: string | null; syncWindowStart: string | null; syncWindowEnd: string; fullResyncRequired: boolean };
}

/** How far ahead of the database clock an `updatedAfter` may be before it is plainly wrong. */
const FUTURE_TOLERANCE_MS = 60_000;

const tombstone = (row: ItemRow): TTombstone => ({ id: row.id, object: 'item', deleted: true, updatedAt: iso(row.updated_at) });

/**
 * One page of a restaurant's items for sync (spec 2.5, 4.2). The first page fixes the window's end
 * (see closeSyncWindow); later pages carry it in their cursor, so a sync sweeps one fixed window and
 * feeding `syncWindowEnd` back as `updatedAfter` is gapless and overlap-free.
 */
export async function listItems(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  restaurantId: string,
  query: ItemListQuery,
): Promise<ItemListPage> {
  const restaurant = await requireRestaurantAccess(deps.db, principal, restaurantId, 'menu:read');
  if (query.status && query.updatedAfter) {
    throw new AppError(
      'invalid_request',
      'status cannot be combined with updatedAfter: an incremental feed filtered by status would miss items leaving that status. Sync without status and filter on your side.',
      { param: 'status' },
    );
  }
  const binding = { listing: 'items', scope: restaurantId, filters: [query.status ?? null, query.updatedAfter?.toISOString() ?? null] };
  const position = query.cursor ? decodeListCursor(deps.cursorSecret, query.cursor, binding) : null;
  const cursor = position
    ? { windowEnd: new Date(position.windowEnd!), after: { updatedAt: new Date(position.updatedAt!), id: position.id! } }
    : null;
  const syncWindowStart = query.updatedAfter ? iso(query.updatedAfter) : null;
  const now = deps.now();
  if (query.updatedAfter && query.updatedAfter.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
    throw new AppError('invalid_request', 'updatedAfter is in the future. Pass the syncWindowEnd of your previous poll.', {
      param: 'updatedAfter',
    });
  }
  if (query.updatedAfter && query.updatedAfter.getTime() < now.getTime() - TOMBSTONE_RETENTION_MS) {
    await meterApiRequest(deps.usageMeter, principal, restaurant, now);
    return { data: [], meta: { nextCursor: null, syncWindowStart, syncWindowEnd: syncWindowStart!, fullResyncRequired: true } };
  }

  let windowEnd = cursor?.windowEnd ?? (await closeSyncWindow(deps.db, restaurantId));
  // A client already at (or past) the database clock: an empty window that does not move it back.
  if (query.updatedAfter && query.updatedAfter >= windowEnd) windowEnd = query.updatedAfter;
  await meterApiRequest(deps.usageMeter, principal, restaurant, now);

  const rows = await listItemsInWindow(deps.db, {
    restaurantId,
    windowStart: query.updatedAfter ?? null,
    windowEnd,
    status: query.status ?? null,
    after: cursor?.after ?? null,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? encodeListCursor(deps.cursorSecret, binding, { windowEnd: iso(windowEnd), updatedAt: iso(last.updated_at), id: last.id })
      : null;
  return {
    data: page.map((row) => (row.deleted_at ? tombstone(row) : presentItem(row, restaurant.currency))),
    meta: { nextCursor, syncWindowStart, syncWindowEnd: iso(windowEnd), fullResyncRequired: false },
  };
}

const noSuchItem = () => new AppError('not_found', 'No such item.');

/**
 * The item, if the key reaches it with assets:read (one query), metered. A missing item and one the
 * key cannot reach answer the very same 404 (spec 4.4).
 */
async function requireItemAccess(deps: CatalogDeps, principal: KeyPrincipal, itemId: string) {
  if (!isId('itm', itemId)) throw noSuchItem();
  const found = await findLiveItemForOwner(deps.db, principal.owner, itemId);
  if (!found) throw noSuchItem();
  requireEntitlement(found.restaurant, found.grantScopes, 'assets:read');
  await meterApiRequest(deps.usageMeter, principal, found.restaurant, deps.now());
  return found;
}

function signAssets(deps: CatalogDeps, item: ItemRow, formats: ('usdz' | 'glb')[]): TAssets | null {
  if (item.model_status !== 'ready') return null;
  const expiresAt = deps.signer.expiry(deps.now());
  const url = (key: string | null, wanted: boolean) => (key && wanted ? deps.signer.url(key, expiresAt) : null);
  return {
    usdzUrl: url(item.model_usdz_key, formats.includes('usdz')),
    glbUrl: url(item.model_glb_key, formats.includes('glb')),
    thumbnailUrl: url(item.model_thumbnail_key, true),
    expiresAt: iso(expiresAt),
  };
}

export async function getItemDetail(deps: CatalogDeps, principal: KeyPrincipal, itemId: string): Promise<TItemDetail> {
  const { item, currency } = await requireItemAccess(deps, principal, itemId);
  return { ...presentItem(item, currency), assets: signAssets(deps, item, ['usdz', 'glb']) };
}

/** Fresh signed URLs for an item whose model is ready (DESIGN.md section 4). */
export async function refreshAssetUrls(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  itemId: string,
  formats: ('usdz' | 'glb')[] = ['usdz', 'glb'],
): Promise<TAssetUrls> {
  const { item } = await requireItemAccess(deps, principal, itemId);
  const assets = signAssets(deps, item, formats);
  if (!assets) throw new AppError('model_not_ready', `This item has no ready 3D model (model status: ${item.model_status}).`);
  return { itemId: item.id, ...assets };
}
