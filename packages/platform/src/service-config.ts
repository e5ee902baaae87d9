import type { z } from 'zod';
import { ZCommonEnv, parseEnv, pemFromEnv, zPort } from '@partner/kit';

type CommonEnv = z.infer<typeof ZCommonEnv>;

/** What every service behind the gateway reads, plus its own port variable (e.g. CATALOG_PORT). */
export function loadServiceConfig(env: Record<string, string | undefined>, portVariable: string, defaultPort: number) {
  const schema = ZCommonEnv.extend({ [portVariable]: zPort(defaultPort) }) as unknown as z.ZodType<CommonEnv & Record<string, number>>;
  const parsed = parseEnv(schema, env);
  return {
    port: parsed[portVariable] as number,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    redisPrefix: parsed.REDIS_KEY_PREFIX,
    logLevel: parsed.LOG_LEVEL,
    internalPublicKey: pemFromEnv(parsed.INTERNAL_JWT_PUBLIC_KEY),
  };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
