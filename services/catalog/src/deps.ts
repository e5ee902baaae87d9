import { AssetSigner, storageFromConfig, type AssetStorage } from '@partner/assets';
import type { RestaurantRow } from '@partner/db';
import { UsageMeter } from '@partner/entitlements';
import {
  accessInvalidations,
  closeRedis,
  connectRedis,
  createServiceDeps,
  menuInvalidations,
  onRedisError,
  subscribeToInvalidations,
  type ServiceDeps,
} from '@partner/http';
import { HmacKey, ViewTokens } from '@partner/signing';
import { CatalogMetrics } from './catalog-metrics.js';
import type { CatalogConfig } from './config.js';
import { ItemAccessCache } from './items/item-access-cache.js';
import { PagePrefetch } from './items/page-prefetch.js';
import { CoalescedReads } from './menu/coalesced-reads.js';
import { buildMenu } from './menu/menu-build.js';
import { MenuCache } from './menu/menu-cache.js';
import { MenuPageCache } from './menu-page/menu-page-cache.js';

export interface CatalogDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorKey: HmacKey;
  viewTokens: ViewTokens;
  usageMeter: UsageMeter;
  signer: AssetSigner;
  itemAccess: ItemAccessCache;
  /** Sync pages read ahead of their requests (see listItems). */
  pagePrefetch: PagePrefetch;
  menuPages: MenuPageCache;
  menus: MenuCache;
  /** The menu route's access check, one read at a time per owner and restaurant. */
  menuAccess: CoalescedReads<RestaurantRow>;
  /** Present when the service keeps metrics. */
  catalogMetrics?: CatalogMetrics;
  /** Past this many published items the menu answers menu_too_large. */
  menuMaxItems: number;
  storage: AssetStorage;
  publicBaseUrl: string;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
}

/**
 * How long the viewer may refresh an item's URLs without counting a new view (spec 4.8): a few
 * refreshes of 15-minute URLs. A viewer left open longer, or a token replayed by a script, counts a
 * view again at most once an hour.
 */
export const VIEW_TOKEN_LIFETIME_MS = 3600 * 1000;

export async function createDeps(config: CatalogConfig): Promise<{ deps: CatalogDeps; closeDeps: () => Promise<void> }> {
  // The catalog writes only usage counters and idempotency records: commits need not wait for the disk
  // (a Postgres crash may forget the last fraction of a second of counts; docs/decisions.md).
  const { deps, faults, closeDeps } = await createServiceDeps('catalog', config, {
    synchronousCommit: false,
    purgesIdempotencyRecords: true,
  });
  const itemAccess = new ItemAccessCache(deps.db, { ttlMs: config.accessCacheTtlMs });
  const subscriber = await connectRedis(config.redisUrl, onRedisError(faults, 'redis subscriber'), {
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  const menuPages = new MenuPageCache({ ttlMs: config.accessCacheTtlMs });
  const storage = await storageFromConfig(config.storage);
  const catalogMetrics = deps.metrics && new CatalogMetrics(deps.metrics);
  await subscribeToInvalidations(subscriber, { channel: accessInvalidations, prefix: config.redisPrefix }, itemAccess, deps.logger);
  await subscribeToInvalidations(subscriber, { channel: menuInvalidations, prefix: config.redisPrefix }, menuPages, deps.logger);
  return {
    deps: {
      ...deps,
      internalPublicKey: config.internalPublicKey,
      cursorKey: new HmacKey(config.cursorSecret),
      viewTokens: new ViewTokens(new HmacKey(config.viewTokenSecret), VIEW_TOKEN_LIFETIME_MS),
      usageMeter: new UsageMeter(deps.db),
      itemAccess,
      pagePrefetch: new PagePrefetch({ onTake: catalogMetrics?.notePrefetchLookup }),
      menuPages,
      menus: new MenuCache({
        maxBytes: config.menuCacheMaxBytes,
        build: (restaurantId, out) => buildMenu(deps.db, restaurantId, out),
        onLookup: catalogMetrics?.noteMenuLookup,
      }),
      catalogMetrics,
      menuAccess: new CoalescedReads(),
      menuMaxItems: config.menuMaxItems,
      signer: new AssetSigner({ secret: config.assetSecret, publicBaseUrl: config.publicBaseUrl, ttlSeconds: config.assetUrlTtlSeconds }),
      storage: storage.storage,
      publicBaseUrl: config.publicBaseUrl,
      menuPageKeySecret: config.menuPageKeySecret,
      menuPageKeyEnvironment: config.menuPageKeyEnvironment,
    },
    closeDeps: async () => {
      await closeRedis(subscriber);
      storage.close();
      await closeDeps();
    },
  };
}
