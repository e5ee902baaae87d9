import type { KeyPrincipal } from '@partner/auth';
import { closeSyncWindow, type ItemRow, itemsInWindow, TOMBSTONE_RETENTION_MS } from '@partner/db';
import { iso, presentItem } from '@partner/views';
import { AppError, isId, type TAssets, type TAssetUrls, type TEmbedItem, type TItem, type TItemDetail } from '@partner/contracts';
import { decodeListCursor, encodeListCursor } from '@partner/signing';
import { countEmbedView, meterApiRequest, requireEntitlement, requireRestaurantAccess } from '@partner/entitlements';
import type { CatalogDeps } from '../deps.js';
import { itemJson } from './item-json.js';
import { type PageRows, prefetchKey } from './page-prefetch.js';

export interface ItemListQuery {
  limit: number;
  cursor?: string;
  updatedAfter?: Date;
  status?: TItem['status'];
}

/** A sync page: its items (and tombstones) as JSON texts, in order, and its meta. */
export interface ItemListPage {
  itemsJson: string[];
  meta: { nextCursor: string | null; syncWindowStart: string | null; syncWindowEnd: string; fullResyncRequired: boolean };
}

/** How far ahead of the database clock an `updatedAfter` may be before it is plainly wrong. */
const FUTURE_TOLERANCE_MS = 60_000;

interface PageRequest {
  binding: { listing: string; scope: string; filters: (string | null)[] };
  cursor: { windowEnd: Date; after: { updatedAt: Date; id: string } } | null;
  syncWindowStart: string | null;
  now: Date;
  /** `updatedAfter` is older than tombstones are kept: the client must sync afresh. */
  pastRetention: boolean;
}

/** What a listing request asks for, checked: nothing here reads the database. */
function pageRequest(deps: CatalogDeps, restaurantId: string, query: ItemListQuery): PageRequest {
  if (query.status && query.updatedAfter) {
    throw new AppError(
      'invalid_request',
      'status cannot be combined with updatedAfter: an incremental feed filtered by status would miss items leaving that status. Sync without status and filter on your side.',
      { param: 'status' },
    );
  }
  const binding = { listing: 'items', scope: restaurantId, filters: [query.status ?? null, query.updatedAfter?.toISOString() ?? null] };
  const position = query.cursor ? decodeListCursor(deps.cursorKey, query.cursor, binding) : null;
  const cursor = position
    ? { windowEnd: new Date(position.windowEnd!), after: { updatedAt: new Date(position.updatedAt!), id: position.id! } }
    : null;
  const now = deps.now();
  if (query.updatedAfter && query.updatedAfter.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
    throw new AppError('invalid_request', 'updatedAfter is in the future. Pass the syncWindowEnd of your previous poll.', {
      param: 'updatedAfter',
    });
  }
  return {
    binding,
    cursor,
    syncWindowStart: query.updatedAfter ? iso(query.updatedAfter) : null,
    now,
    pastRetention: !!query.updatedAfter && query.updatedAfter.getTime() < now.getTime() - TOMBSTONE_RETENTION_MS,
  };
}

/**
 * One page of a restaurant's items for sync (spec 2.5, 4.2). The first page fixes the window's end
 * (see closeSyncWindow); later pages carry it in their cursor, so a sync sweeps one fixed window and
 * feeding `syncWindowEnd` back as `updatedAfter` is gapless and overlap-free.
 *
 * A later page is read while access and quota are checked (one round trip a page instead of three in
 * a row): a refused request's rows are read for nothing and never shown. Refusals answer as if access
 * came first: a 404 wins over a bad request, and quota over a failed read.
 *
 * Once a page with a next cursor is answered, the next page is read ahead (PagePrefetch) while the
 * client takes this one. Its window is already closed, so a page read early is the page as it was a
 * moment ago: a dish changed since has left the window (its `updatedAt` is past the window's end) and
 * comes with the next sync. Nothing is skipped; at worst a dish is seen in its older form here and
 * again in the next sync. Only a first page or a page read ahead here reads ahead: behind several
 * replicas, a page that lands on another one misses and ends the chain there, so a sync wastes at most
 * about one page read.
 */
export async function listItems(
  deps: CatalogDeps,
  principal: KeyPrincipal,
  restaurantId: string,
  query: ItemListQuery,
): Promise<ItemListPage> {
  const reached = requireRestaurantAccess(deps.db, principal, restaurantId, 'menu:read');
  reached.catch(() => {});
  let request: PageRequest;
  try {
    request = pageRequest(deps, restaurantId, query);
  } catch (err) {
    await reached;
    throw err;
  }
  const { binding, cursor, syncWindowStart, now } = request;
  if (request.pastRetention) {
    await meterApiRequest(deps.usageMeter, principal, await reached, now);
    return { itemsJson: [], meta: { nextCursor: null, syncWindowStart, syncWindowEnd: syncWindowStart!, fullResyncRequired: true } };
  }

  const readRows = (windowEnd: Date, after: { updatedAt: Date; id: string } | null): Promise<PageRows> =>
    itemsInWindow(deps.db, {
      restaurantId,
      windowStart: query.updatedAfter ?? null,
      windowEnd,
      status: query.status ?? null,
      after,
      limit: query.limit + 1,
    })
      .select(itemJson(restaurantId).as('json'))
      .execute();
  const readPage = (end: Date, readAhead?: Promise<PageRows | undefined>) => {
    // A client already at (or past) the database clock: an empty window that does not move it back.
    const windowEnd = query.updatedAfter && query.updatedAfter >= end ? query.updatedAfter : end;
    const readNow = () => readRows(windowEnd, cursor?.after ?? null);
    const rows = readAhead !== undefined ? readAhead.then((held) => held ?? readNow()) : readNow();
    rows.catch(() => {}); // awaited below, once access and quota have had their say
    return { windowEnd, rows };
  };
  // Taken as a fresh read would start, before access is known: a refused request wastes it, never shows it.
  const readAhead = query.cursor ? deps.pagePrefetch.take(prefetchKey(query.cursor, query.limit)) : undefined;
  // The first page closes the window under the restaurant's sync lock: only for a caller who reaches it.
  const page = cursor ? readPage(cursor.windowEnd, readAhead) : null;
  const restaurant = await reached;
  const { windowEnd, rows: read } = page ?? readPage(await closeSyncWindow(deps.db, restaurantId));
  await meterApiRequest(deps.usageMeter, principal, restaurant, now);
  const rows = await read;
  const itemsJson = rows.slice(0, query.limit).map((row) => row.json);
  const last = itemsJson.at(-1);
  // The keyset position is the last item's own: its id and updatedAt, read back from its JSON.
  const position = rows.length > query.limit && last ? (JSON.parse(last) as { id: string; updatedAt: string }) : null;
  let nextCursor: string | null = null;
  if (position) {
    nextCursor = encodeListCursor(deps.cursorKey, binding, { windowEnd: iso(windowEnd), updatedAt: position.updatedAt, id: position.id });
    // Only a first page or one read ahead here: the chain ends at a page that landed on another replica.
    if (!cursor || readAhead !== undefined) {
      const after = { updatedAt: new Date(position.updatedAt), id: position.id };
      deps.pagePrefetch.hold(prefetchKey(nextCursor, query.limit), readRows(windowEnd, after));
    }
  }
  return { itemsJson, meta: { nextCursor, syncWindowStart, syncWindowEnd: iso(windowEnd), fullResyncRequired: false } };
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
  // A publishable key is public: through it, a draft or archived dish does not exist.
  if (!found || (principal.keyType === 'publishable' && found.item.status !== 'published')) throw noSuchItem();
  requireEntitlement(found.restaurant, found.grantScopes, 'assets:read');
  if (options.meter) await meterApiRequest(deps.usageMeter, principal, found.restaurant, deps.now());
  return found;
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
  const refresh = view !== undefined && deps.viewTokens.isValid(view, principal.keyId, itemId, deps.now());
  const { item, publicMenuUrl, restaurant } = await requireItemAccess(deps, principal, itemId, { meter: false });
  // A load is an API request and an embed view; a load the quota refuses is no view.
  if (!refresh) {
    const now = deps.now();
    await meterApiRequest(deps.usageMeter, principal, restaurant, now);
    await countEmbedView(deps.usageMeter, principal, restaurant, now);
  }
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
    viewToken: refresh ? view : deps.viewTokens.issue(principal.keyId, itemId, deps.now()),
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
