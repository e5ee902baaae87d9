import { z } from 'zod';
import { zId } from './ids.js';

/** Timestamps on the wire: ISO 8601 UTC with microseconds kept, so a value fed back never moves. */
export const ZTimestamp = z.iso.datetime({ offset: false, precision: undefined });

export const ZCurrency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD');

export const ZRestaurant = z.object({
  id: zId('rst'),
  name: z.string(),
  slug: z.string(),
  currency: ZCurrency,
  publicMenuUrl: z.string().nullable(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TRestaurant = z.infer<typeof ZRestaurant>;

export const ITEM_STATUSES = ['draft', 'published', 'archived'] as const;
export const ZItemStatus = z.enum(ITEM_STATUSES);
export type TItemStatus = z.infer<typeof ZItemStatus>;

export const MODEL_STATUSES = ['none', 'processing', 'ready', 'failed'] as const;
export const ZModelStatus = z.enum(MODEL_STATUSES);
export type TModelStatus = z.infer<typeof ZModelStatus>;

export const ZItem = z.object({
  id: zId('itm'),
  restaurantId: zId('rst'),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  /** @deprecated major units; use priceCents. */
  price: z.number(),
  currency: ZCurrency,
  status: ZItemStatus,
  sectionId: z.string().nullable(),
  dietaryTags: z.array(z.string()),
  allergens: z.array(z.string()),
  model: z.object({ status: ZModelStatus, updatedAt: ZTimestamp.nullable() }),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TItem = z.infer<typeof ZItem>;

export const ZAssets = z.object({
  usdzUrl: z.string().nullable(),
  glbUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  expiresAt: ZTimestamp,
});
export type TAssets = z.infer<typeof ZAssets>;

export const ZItemDetail = ZItem.extend({ assets: ZAssets.nullable() });
export type TItemDetail = z.infer<typeof ZItemDetail>;

/** Only in incremental listings: a deletion inside the sync window. */
export const ZTombstone = z.object({
  id: zId('itm'),
  object: z.literal('item'),
  deleted: z.literal(true),
  updatedAt: ZTimestamp,
});
export type TTombstone = z.infer<typeof ZTombstone>;

/** What an item listing's `meta` adds to `nextCursor` (spec 2.5): a shape, for `zList(…, ZItemListMeta)`. */
export const ZItemListMeta = {
  syncWindowStart: ZTimestamp.nullable(),
  syncWindowEnd: ZTimestamp,
  fullResyncRequired: z.boolean(),
};
/** An item listing's whole `meta`. */
export type TItemListMeta = { nextCursor: string | null } & z.infer<z.ZodObject<typeof ZItemListMeta>>;

export const ZSection = z.object({
  id: zId('sec'),
  name: z.string(),
  position: z.number().int(),
});
export type TSection = z.infer<typeof ZSection>;

export const ZMenu = z.object({
  restaurant: ZRestaurant,
  sections: z.array(ZSection.extend({ items: z.array(ZItem) })),
  /** Published items that sit in no section. */
  unsectionedItems: z.array(ZItem),
  updatedAt: ZTimestamp,
});
export type TMenu = z.infer<typeof ZMenu>;

export const ZAssetUrlsRequest = z.strictObject({
  formats: z
    .array(z.enum(['usdz', 'glb']))
    .min(1)
    .optional(),
});

export const ZAssetUrls = z.object({
  itemId: zId('itm'),
  usdzUrl: z.string().nullable(),
  glbUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  expiresAt: ZTimestamp,
});
export type TAssetUrls = z.infer<typeof ZAssetUrls>;

/** What the viewer embed needs (GET /partner/embed/items/{id}). */
export const ZEmbedItem = z.object({
  itemId: zId('itm'),
  name: z.string(),
  thumbnailUrl: z.string().nullable(),
  usdzUrl: z.string().nullable(),
  glbUrl: z.string().nullable(),
  expiresAt: ZTimestamp,
  publicMenuUrl: z.string().nullable(),
  testMode: z.boolean(),
  /** Pass back as `?view=` to refresh expired URLs without counting another view. */
  viewToken: z.string(),
});
export type TEmbedItem = z.infer<typeof ZEmbedItem>;
