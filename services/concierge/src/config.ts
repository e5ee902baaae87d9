import { z } from 'zod';
import { commonConfig, crossFieldRule, parseEnv, pemFromEnv, ZBehindGatewayEnv, zAssetUrlTtlSeconds, zPort } from '@partner/http';

const ZConciergeEnv = ZBehindGatewayEnv.extend({
  CONCIERGE_PORT: zPort(8083),
  /** The model provider for live keys; any server speaking OpenAI's chat-completions protocol. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  CONCIERGE_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
  CONCIERGE_HEARTBEAT_SECONDS: z.coerce.number().positive().default(15),
  /** Card thumbnails are signed asset URLs: the catalog's secret and the gateway's origin. Unset: no thumbnails. */
  ASSET_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Bounded as the catalog's is: console's sweep keeps a file longer than any URL to it lives. */
  ASSET_URL_TTL_SECONDS: zAssetUrlTtlSeconds,
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
  /** The model's answer is cut at this many tokens: every call's cost is bounded. */
  CONCIERGE_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(50).max(4000).default(600),
  /**
   * A model call that sends no words for this long (before its first, headers included, or between two)
   * is given up. A reasoning model that thinks long before its first word needs more.
   */
  CONCIERGE_MODEL_IDLE_SECONDS: z.coerce.number().positive().max(600).default(60),
  /** One visitor of a restaurant's pages spends at most this percent of its monthly allowance... */
  CONCIERGE_VISITOR_SHARE_PERCENT: z.coerce.number().min(0).max(100).default(2),
  /** ...and at least this many messages are theirs whatever the allowance. */
  CONCIERGE_VISITOR_MIN_MESSAGES: z.coerce.number().int().min(1).default(10),
  /** Menu indexes kept in memory, by their size: a restaurant's index outside it is rebuilt when next asked. */
  CONCIERGE_INDEX_CACHE_MB: z.coerce.number().int().min(1).default(512),
  /** Worker threads building menu indexes at once (off the event loop); further builds queue. */
  CONCIERGE_INDEX_BUILD_THREADS: z.coerce.number().int().min(1).max(16).default(1),
}).check(
  crossFieldRule(['OPENAI_BASE_URL', 'OPENAI_API_KEY'], (env: { OPENAI_BASE_URL?: string; OPENAI_API_KEY?: string }, ctx) => {
    // A base URL without a key would silently leave live keys on "no model configured".
    if (env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['OPENAI_API_KEY'], message: 'is required when OPENAI_BASE_URL is set' });
    }
  }),
);

export function loadConciergeConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZConciergeEnv, env);
  return {
    ...commonConfig(own),
    port: own.CONCIERGE_PORT,
    internalPublicKey: pemFromEnv(own.INTERNAL_JWT_PUBLIC_KEY),
    openai: own.OPENAI_API_KEY
      ? {
          apiKey: own.OPENAI_API_KEY,
          baseURL: own.OPENAI_BASE_URL,
          model: own.CONCIERGE_MODEL,
          maxOutputTokens: own.CONCIERGE_MAX_OUTPUT_TOKENS,
          idleTimeoutMs: own.CONCIERGE_MODEL_IDLE_SECONDS * 1000,
        }
      : null,
    visitorShare: { percent: own.CONCIERGE_VISITOR_SHARE_PERCENT, minimum: own.CONCIERGE_VISITOR_MIN_MESSAGES },
    heartbeatMs: own.CONCIERGE_HEARTBEAT_SECONDS * 1000,
    menuIndex: { maxBytes: own.CONCIERGE_INDEX_CACHE_MB * 1024 * 1024, buildThreads: own.CONCIERGE_INDEX_BUILD_THREADS },
    publicBaseUrl: own.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    assets: own.ASSET_SIGNING_SECRET
      ? { secret: own.ASSET_SIGNING_SECRET, publicBaseUrl: own.PUBLIC_BASE_URL.replace(/\/+$/, ''), ttlSeconds: own.ASSET_URL_TTL_SECONDS }
      : null,
  };
}
export type ConciergeConfig = ReturnType<typeof loadConciergeConfig>;
