import type { KeyPrincipal } from '@partner/auth';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isId, type TAssetUrls, type TAssets, type TEmbedItem, type TItem, type TItemDetail, type TTombstone } from '@partner/contracts';
import { closeSyncWindow, iso, listItemsInWindow, presentItem, type ItemRow } from '@partner/db';
import { AppError } from '@partner/kit';
import { decodeListCursor, encodeListCursor, meterApiRequest, requireEntitlement, requireRestaurantAccess } from '@partner/platform';
import type { CatalogDeps } from '../deps.js';
import { TOMBSTONE_RETENTION_MS } from './housekeeping.js';

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
 * The item, if the key reaches it with assets:read (cached; see ItemAccessCache), metered. A missing item and one the
 * key cannot reach answer the very same 404 (spec 4.4).
 */
async function requireItemAccess(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  itemId: string,
  options: { meter: boolean } = { meter: true },
) {
  if (!isId('itm', itemId)) throw noSuchItem();
  const found = await deps.itemAccess.find(principal.owner, itemId);
  if (!found) throw noSuchItem();
  requireEntitlement(found.restaurant, found.grantScopes, 'assets:read');
  if (options.meter) await meterApiRequest(deps.usageMeter, principal, found.restaurant, deps.now());
  return found;
}

const VIEW_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

function viewToken(deps: CatalogDeps, principal: KeyPrincipal, itemId: string): string {
  const expires = deps.now().getTime() + VIEW_TOKEN_LIFETIME_MS;
  const mac = createHmac('sha256', deps.cursorSecret).update(`view|${principal.keyId}|${itemId}|${expires}`).digest('base64url');
  return `${expires}.${mac}`;
}

function validViewToken(deps: CatalogDeps, principal: KeyPrincipal, itemId: string, token: string): boolean {
  const [expires, mac] = token.split('.');
  if (!expires || !mac || !/^\d{1,15}$/.test(expires) || Number(expires) <= deps.now().getTime()) return false;
  const expected = createHmac('sha256', deps.cursorSecret).update(`view|${principal.keyId}|${itemId}|${expires}`).digest();
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What the viewer embed needs. Each load is one embed view against the quota (live keys); a refresh of
 * expired URLs that presents the load's view token counts nothing (spec 4.8 behaviours 4 and 6).
 */
export async function getEmbedItem(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  itemId: string,
  view: string | undefined,
): Promise<TEmbedItem> {
  const refresh = view !== undefined && validViewToken(deps, principal, itemId, view);
  const { item, publicMenuUrl } = await requireItemAccess(deps, principal, itemId, { meter: !refresh });
  const assets = signAssets(deps, item, ['usdz', 'glb']);
  return {
    itemId: item.id,
    name: item.name,
    thumbnailUrl: assets?.thumbnailUrl ?? null,
    usdzUrl: assets?.usdzUrl ?? null,
    glbUrl: assets?.glbUrl ?? null,
    expiresAt: assets?.expiresAt ?? iso(deps.now()),
    publicMenuUrl,
    testMode: principal.environment === 'test',
    viewToken: refresh ? view! : viewToken(deps, principal, itemId),
  };
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
  const { item, restaurant } = await requireItemAccess(deps, principal, itemId, { meter: false });
  const assets = signAssets(deps, item, formats);
  // Refused before it is counted: a refresh that yields no URLs costs no quota.
  if (!assets) throw new AppError('model_not_ready', `This item has no ready 3D model (model status: ${item.model_status}).`);
  await meterApiRequest(deps.usageMeter, principal, restaurant, deps.now());
  return { itemId: item.id, ...assets };
}
