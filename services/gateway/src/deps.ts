import { InternalTokenSigner, keyInvalidations } from '@partner/auth';
import { createDb } from '@partner/db';
import { connectRedis, createLogger, subscribeToInvalidations } from '@partner/kit';
import { KeyCache } from './auth/key-cache.js';
import type { GatewayDeps } from './app.js';
import type { GatewayConfig } from './config.js';
import { embedScriptsDir } from './embed-scripts.js';
import { ServiceProxy } from './proxy/proxy.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';

export async function createDeps(config: GatewayConfig): Promise<{ deps: GatewayDeps; close: () => Promise<void> }> {
  const logger = createLogger({ service: 'gateway', level: config.logLevel });
  const db = createDb({
    url: config.databaseUrl,
    max: 10,
    applicationName: 'gateway',
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost'),
  });
  const onRedisError = (err: Error) => logger.error({ err }, 'redis error');
  // One command per request: the rate limiter bounds its own waits.
  const redis = await connectRedis(config.redisUrl, onRedisError, { callerBoundsWaits: true });
  const subscriber = await connectRedis(config.redisUrl, onRedisError);
  const keyCache = new KeyCache({ db, ttlMs: config.keyCacheTtlMs });
  await subscribeToInvalidations(subscriber, { channel: keyInvalidations, prefix: config.redisPrefix }, keyCache, logger);
  const proxy = new ServiceProxy(config.services);
  const deps: GatewayDeps = {
    logger,
    keyCache,
    rateLimiter: new RateLimiter(redis, config.redisPrefix),
    proxy,
    tokens: new InternalTokenSigner(config.jwtPrivateKey),
    docsUrl: config.docsUrl,
    maxBodyBytes: config.maxBodyBytes,
    embedDir: embedScriptsDir(),
    now: () => new Date(),
  };
  return {
    deps,
    close: async () => {
      await proxy.close();
      await Promise.all([subscriber.quit(), redis.quit(), db.destroy()]);
      logger.flush();
    },
  };
}
