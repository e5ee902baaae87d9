import { z } from 'zod';
import {
  ZAssetUrls,
  ZAssetUrlsRequest,
  ZEmbedItem,
  ZEmbedItemQuery,
  ZItem,
  ZItemDetail,
  ZItemListMeta,
  ZItemListQuery,
  ZKeyMetadata,
  ZListQuery,
  ZMenu,
  ZRestaurant,
  ZTombstone,
  zData,
  zList,
} from '@partner/contracts';
import { pathId, type Operation, type RouteKey } from './operation.js';

const restaurantId = pathId('rst', 'The restaurant.');
const itemId = pathId('itm', 'The item.');

const ZItemOrTombstone = z.union([ZItem, ZTombstone]);

const ZItemList = zList(ZItemOrTombstone, ZItemListMeta).meta({
  description:
    'Without `updatedAfter`: a page of items, oldest change first. With it: the items changed in the sync window, deletions as tombstones; `meta.syncWindowEnd` is the next `updatedAfter`.',
});

const assetFileDescription =
  'The file (USDZ, GLB or PNG) behind a signed URL. No key: the signature in the path authorises it, until the URL expires. `Range` requests are answered with 206.';

/** `/me` (answered by the gateway) and the catalog's routes. */
export const CATALOG_OPERATIONS: Record<RouteKey, Operation> = {
  'GET /v1/partner/me': {
    operationId: 'getKeyMetadata',
    tag: 'Account',
    summary: 'The calling key',
    description: 'What the key is, what it may do and whom it belongs to. Any valid secret key may call it.',
    success: { kind: 'json', status: 200, schema: zData(ZKeyMetadata), description: 'The key.' },
    errors: [],
  },

  'GET /v1/partner/restaurants': {
    operationId: 'listRestaurants',
    tag: 'Restaurants',
    summary: 'List restaurants',
    description: "A restaurant key sees its own restaurant; an integrator's key every restaurant that granted it access.",
    query: ZListQuery,
    success: { kind: 'json', status: 200, schema: zList(ZRestaurant), description: 'A page of restaurants.' },
    errors: [],
  },
  'GET /v1/partner/restaurants/:id/items': {
    operationId: 'listItems',
    tag: 'Items',
    summary: 'List or sync items',
    description:
      "Pages through a restaurant's items. With `updatedAfter` it answers a sync window instead: every item changed after that instant and a tombstone for every item deleted, with `meta.fullResyncRequired` when the window reaches past the retained deletions (start again without `updatedAfter`).",
    path: restaurantId,
    query: ZItemListQuery,
    success: { kind: 'json', status: 200, schema: ZItemList, description: 'A page of items, or of changes.' },
    errors: ['not_found'],
  },
  'GET /v1/partner/restaurants/:id/menu': {
    operationId: 'getMenu',
    tag: 'Menu',
    summary: 'The published menu',
    description:
      'Sections with their published items, in order. Send the last `ETag` as `If-None-Match`: an unchanged menu answers 304 with no body. A menu of more published items than one answer carries (25,000 unless the platform sets otherwise) answers 409 `menu_too_large`: read it with the items listing instead.',
    path: restaurantId,
    success: { kind: 'json', status: 200, schema: zData(ZMenu), description: 'The menu.' },
    conditional: true,
    errors: ['not_found', 'menu_too_large'],
  },
  'GET /v1/partner/items/:id': {
    operationId: 'getItem',
    tag: 'Items',
    summary: 'An item with its asset URLs',
    description: 'The item and, when its model is ready, signed URLs for its files (they expire at `assets.expiresAt`).',
    path: itemId,
    success: { kind: 'json', status: 200, schema: zData(ZItemDetail), description: 'The item.' },
    errors: ['not_found'],
  },
  'POST /v1/partner/items/:id/asset-urls': {
    operationId: 'refreshAssetUrls',
    tag: 'Assets',
    summary: 'Fresh signed asset URLs',
    description: 'New signed URLs for an item whose model is ready; call it when the old ones are close to `expiresAt`.',
    path: itemId,
    body: ZAssetUrlsRequest,
    success: { kind: 'json', status: 200, schema: zData(ZAssetUrls), description: 'The URLs.' },
    errors: ['not_found', 'model_not_ready'],
  },
  'GET /v1/partner/embed/items/:id': {
    operationId: 'getEmbedItem',
    tag: 'Embeds',
    summary: "The viewer embed's item",
    description:
      'What the 3D viewer embed shows. Called by the embed with a publishable key from an allowed origin; each call without `view` counts one embed view.',
    path: itemId,
    query: ZEmbedItemQuery,
    success: { kind: 'json', status: 200, schema: zData(ZEmbedItem), description: 'The item as the viewer needs it.' },
    errors: ['not_found', 'model_not_ready'],
  },
  'GET /v1/assets/*': {
    operationId: 'getAssetFile',
    tag: 'Assets',
    summary: 'A signed asset file',
    description: assetFileDescription,
    path: { path: z.string().meta({ description: 'The rest of the signed URL, exactly as the API returned it.' }) },
    success: { kind: 'file', description: 'The file, or the requested range of it.' },
    errors: ['expired_signature', 'invalid_signature', 'not_found', 'range_not_satisfiable'],
  },
  'HEAD /v1/assets/*': {
    operationId: 'headAssetFile',
    tag: 'Assets',
    summary: "A signed asset file's headers",
    description: `${assetFileDescription} HEAD answers the same headers without the body.`,
    path: { path: z.string().meta({ description: 'The rest of the signed URL, exactly as the API returned it.' }) },
    success: { kind: 'file', description: 'The headers of the file.' },
    errors: ['expired_signature', 'invalid_signature', 'not_found', 'range_not_satisfiable'],
  },
  'GET /menu/:id': {
    operationId: 'getMenuPage',
    tag: 'Embeds',
    summary: "A restaurant's public menu page",
    description: 'An HTML page with the published menu, the 3D viewer and the concierge widget. No key.',
    path: restaurantId,
    success: { kind: 'html', description: 'The page.' },
    errors: ['not_found'],
  },
};
