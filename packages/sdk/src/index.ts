export { PartnerClient, type PartnerClientOptions } from './client.js';
export { ConciergeStreamError, isApiError, PartnerApiError, type PartnerErrorCode } from './errors.js';
export { type Page, PageIterator } from './pagination.js';
export { type ItemListMeta, type ItemPage, ItemSync, type SyncChange, type SyncState } from './sync.js';
export { type CachedMenu, type MenuCache, MemoryMenuCache } from './menu.js';
export type { AssetFormat, AssetUrlOptions, Assets } from './assets.js';
export type { Concierge } from './concierge.js';
export type { ItemListOptions, ItemSyncOptions, Items } from './items.js';
export type { ListOptions, Restaurants } from './restaurants.js';
export type {
  CreateWebhookEndpoint,
  DeliveryListOptions,
  RecoverWebhookDeliveries,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
  WebhookDeliveries,
  WebhookEndpoints,
  WebhookEndpointWithSecret,
} from './webhook-endpoints.js';
export { type Clock, type RetryOptions, systemClock } from './retry.js';
export type { FetchLike, MutationOptions, RequestOptions } from './transport.js';
export * from './webhooks.js';
export type {
  TAssetUrls,
  TChatRequest,
  TConciergeEvent,
  TEvent,
  TWebhookEvent,
  TWebhookSignatureScheme,
  TItem,
  TItemDetail,
  TKeyMetadata,
  TMenu,
  TRestaurant,
  TTombstone,
  TWebhookDelivery,
  TWebhookEndpoint,
} from '@partner/contracts';
