import { z } from 'zod';
import { parseEnv } from '@partner/kit';
import { loadServiceConfig } from '@partner/platform';

const ZConciergeEnv = z.object({
  /** The model provider for live keys; any server speaking OpenAI's chat-completions protocol. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  CONCIERGE_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
  CONCIERGE_HEARTBEAT_SECONDS: z.coerce.number().positive().default(15),
  /** Card thumbnails are signed asset URLs: the catalog's secret and the gateway's origin. Unset: no thumbnails. */
  ASSET_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ASSET_URL_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
});

export function loadConciergeConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZConciergeEnv, env);
  return {
    ...loadServiceConfig(env, 'CONCIERGE_PORT', 8083),
    openai: own.OPENAI_API_KEY ? { apiKey: own.OPENAI_API_KEY, baseURL: own.OPENAI_BASE_URL, model: own.CONCIERGE_MODEL } : null,
    heartbeatMs: own.CONCIERGE_HEARTBEAT_SECONDS * 1000,
    publicBaseUrl: own.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    assets: own.ASSET_SIGNING_SECRET
      ? { secret: own.ASSET_SIGNING_SECRET, publicBaseUrl: own.PUBLIC_BASE_URL.replace(/\/+$/, ''), ttlSeconds: own.ASSET_URL_TTL_SECONDS }
      : null,
  };
}
export type ConciergeConfig = ReturnType<typeof loadConciergeConfig>;
