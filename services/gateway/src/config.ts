import { z } from 'zod';
import { ZCommonEnv, parseEnv, pemFromEnv, zPort } from '@partner/kit';

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
  DOCS_URL: z.url().default('http://localhost:8080/docs'),
  /** Bodies larger than this are refused with 413 before anything is proxied. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** How long a key lookup is trusted without a pub/sub invalidation; revocations arrive by pub/sub. */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
});

export type GatewayConfig = ReturnType<typeof toGatewayConfig>;

function toGatewayConfig(env: z.infer<typeof ZGatewayEnv>) {
  const local = (port: number) => `http://127.0.0.1:${port}`;
  return {
    port: env.GATEWAY_PORT,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_KEY_PREFIX,
    logLevel: env.LOG_LEVEL,
    jwtPrivateKey: pemFromEnv(env.INTERNAL_JWT_PRIVATE_KEY),
    services: {
      catalog: env.CATALOG_URL ?? local(env.CATALOG_PORT),
      webhooks: env.WEBHOOKS_URL ?? local(env.WEBHOOKS_PORT),
      concierge: env.CONCIERGE_URL ?? local(env.CONCIERGE_PORT),
    },
    publicBaseUrl: env.PUBLIC_BASE_URL,
    docsUrl: env.DOCS_URL,
    maxBodyBytes: env.MAX_BODY_BYTES,
    keyCacheTtlMs: env.KEY_CACHE_TTL_MS,
  };
}

export function loadGatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  return toGatewayConfig(parseEnv(ZGatewayEnv.omit({ INTERNAL_JWT_PUBLIC_KEY: true }), env) as z.infer<typeof ZGatewayEnv>);
}
