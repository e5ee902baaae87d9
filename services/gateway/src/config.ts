import { z } from 'zod';
import { commonConfig, parseEnv, pemFromEnv, ZCommonEnv, zPort } from '@partner/http';

export const ZGatewayEnv = ZCommonEnv.extend({
  GATEWAY_PORT: zPort(8080),
  /** PEM of the private key that signs internal JWTs; services hold the public half. */
  INTERNAL_JWT_PRIVATE_KEY: z.string().min(1, 'is required (PEM private key)'),
  /** Where the gateway reaches each service; by default the local ports of DESIGN.md section 6. */
  CATALOG_URL: z.url().optional(),
  WEBHOOKS_URL: z.url().optional(),
  CONCIERGE_URL: z.url().optional(),
  CATALOG_PORT: zPort(8081),
  WEBHOOKS_PORT: zPort(8082),
  CONCIERGE_PORT: zPort(8083),
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
  /** Where `GET /v1/partner/me` sends integrators: by default the reference this gateway serves. */
  DOCS_URL: z.url().optional(),
  /** How long a key lookup is trusted without a pub/sub invalidation; revocations arrive by pub/sub. */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * Keys each replica keeps in its cache, least recently used out first. Size it above the keys that
   * send requests within a KEY_CACHE_TTL_MS: past the bound, the coldest keys' requests go to Postgres.
   */
  KEY_CACHE_MAX_KEYS: z.coerce.number().int().positive().default(100_000),
  /**
   * How many proxies in front of the gateway append to X-Forwarded-For (a load balancer: 1). The client
   * address is the one that many hops back; 0 (the default) uses the connection's address, since a
   * header anyone can send must never decide whose limit a request counts against.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Publishable keys' concierge requests (bootstrap and chat) per visitor (client address) a minute. */
  EMBED_VISITOR_PER_MIN: z.coerce.number().int().positive().default(20),
  /** ...and per restaurant a minute, over all its visitors. */
  EMBED_RESTAURANT_PER_MIN: z.coerce.number().int().positive().default(600),
  /** Requests one client address may make a minute before a key vouches for it: public routes (menu page, asset files) and key lookups that reach the database. */
  CLIENT_PER_MIN: z.coerce.number().int().positive().default(600),
  /**
   * Gateway replicas behind the load balancer (with autoscaling, the most there can be). While Redis is
   * unreachable, each replica allows this share of every per-minute limit on its own, so the fleet never
   * passes the limit; a count too low lets the fleet pass it, one too high only refuses sooner.
   */
  GATEWAY_REPLICAS: z.coerce.number().int().positive().default(1),
});

export type GatewayConfig = ReturnType<typeof toGatewayConfig>;

function toGatewayConfig(env: z.infer<typeof ZGatewayEnv>) {
  const local = (port: number) => `http://127.0.0.1:${port}`;
  return {
    ...commonConfig(env),
    port: env.GATEWAY_PORT,
    jwtPrivateKey: pemFromEnv(env.INTERNAL_JWT_PRIVATE_KEY),
    services: {
      catalog: env.CATALOG_URL ?? local(env.CATALOG_PORT),
      webhooks: env.WEBHOOKS_URL ?? local(env.WEBHOOKS_PORT),
      concierge: env.CONCIERGE_URL ?? local(env.CONCIERGE_PORT),
    },
    publicBaseUrl: env.PUBLIC_BASE_URL,
    docsUrl: env.DOCS_URL ?? new URL('/docs', env.PUBLIC_BASE_URL).href,
    keyCacheTtlMs: env.KEY_CACHE_TTL_MS,
    keyCacheMaxKeys: env.KEY_CACHE_MAX_KEYS,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    clientLimitPerMin: env.CLIENT_PER_MIN,
    replicas: env.GATEWAY_REPLICAS,
    embedLimits: { perVisitorPerMin: env.EMBED_VISITOR_PER_MIN, perRestaurantPerMin: env.EMBED_RESTAURANT_PER_MIN },
  };
}

export function loadGatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  return toGatewayConfig(parseEnv(ZGatewayEnv, env));
}
