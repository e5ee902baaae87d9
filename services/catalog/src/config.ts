import { z } from 'zod';
import { parseEnv } from '@partner/kit';
import { loadServiceConfig } from '@partner/platform';

const ZCatalogEnv = z.object({
  /** HMAC key for pagination cursors; every catalog replica must share it. */
  CURSOR_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
});

export function loadCatalogConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZCatalogEnv, env);
  return { ...loadServiceConfig(env, 'CATALOG_PORT', 8081), cursorSecret: own.CURSOR_SIGNING_SECRET };
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
