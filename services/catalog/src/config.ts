import { z } from 'zod';
import {
  commonConfig,
  distinctSecrets,
  parseEnv,
  pemFromEnv,
  storageConfig,
  storageEnvRule,
  storageEnvShape,
  zAssetUrlTtlSeconds,
  ZBehindGatewayEnv,
  zPort,
} from '@partner/http';

const ZCatalogEnv = ZBehindGatewayEnv.extend({
  CATALOG_PORT: zPort(8081),
  /** HMAC key for pagination cursors; every catalog replica must share it. */
  CURSOR_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** HMAC key for the viewer embed's view tokens; every catalog replica must share it. */
  VIEW_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** HMAC key for signed asset URLs; every catalog replica must share it. */
  ASSET_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** The asset store console writes uploaded models to (docs/storage.md). */
  ...storageEnvShape,
  ASSET_URL_TTL_SECONDS: zAssetUrlTtlSeconds,
  /** Derives each restaurant's public menu page key (console creates the key row with the same secret). */
  MENU_PAGE_KEY_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Must match console's: which environment the menu page's derived key belongs to. */
  MENU_PAGE_KEY_ENVIRONMENT: z.enum(['live', 'test']).default('live'),
  /** The gateway's public origin: signed asset URLs point there. */
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
  /** Upper bound on a cached item lookup; console's invalidations arrive by pub/sub at once. */
  ACCESS_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * The most published items a full menu answers with (about 450 bytes each); past it the menu answers
   * 409 menu_too_large and the integrator reads the paginated items listing instead.
   */
  MENU_MAX_ITEMS: z.coerce.number().int().min(1).default(25_000),
  /** Built menus kept as bytes, least recently used out first, within this many bytes in all. */
  MENU_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(64 * 1024 * 1024),
})
  .check(distinctSecrets('CURSOR_SIGNING_SECRET', 'VIEW_TOKEN_SECRET', 'ASSET_SIGNING_SECRET', 'MENU_PAGE_KEY_SECRET'))
  .check(storageEnvRule);

export function loadCatalogConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZCatalogEnv, env);
  return {
    ...commonConfig(own),
    port: own.CATALOG_PORT,
    internalPublicKey: pemFromEnv(own.INTERNAL_JWT_PUBLIC_KEY),
    cursorSecret: own.CURSOR_SIGNING_SECRET,
    assetSecret: own.ASSET_SIGNING_SECRET,
    viewTokenSecret: own.VIEW_TOKEN_SECRET,
    storage: storageConfig(own),
    assetUrlTtlSeconds: own.ASSET_URL_TTL_SECONDS,
    publicBaseUrl: own.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    menuPageKeySecret: own.MENU_PAGE_KEY_SECRET,
    menuPageKeyEnvironment: own.MENU_PAGE_KEY_ENVIRONMENT,
    accessCacheTtlMs: own.ACCESS_CACHE_TTL_MS,
    menuMaxItems: own.MENU_MAX_ITEMS,
    menuCacheMaxBytes: own.MENU_CACHE_MAX_BYTES,
  };
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
