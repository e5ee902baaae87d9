import { createDb, type Db } from '@partner/db';
import { connectRedis, createLogger, type Logger, type RedisClient } from '@partner/kit';
import type { ServiceConfig } from './service-config.js';

export interface ServiceDeps {
  db: Db;
  redis: RedisClient;
  logger: Logger;
  redisPrefix: string;
  now: () => Date;
}

/** The pools every service holds, and the one function that closes them on shutdown. */
export async function createServiceDeps(
  service: string,
  config: ServiceConfig,
): Promise<{ deps: ServiceDeps; close: () => Promise<void> }> {
  const logger = createLogger({ service, level: config.logLevel });
  const db = createDb({ url: config.databaseUrl, applicationName: service });
  const redis = await connectRedis(config.redisUrl, (err) => logger.error({ err }, 'redis error'));
  return {
    deps: { db, redis, logger, redisPrefix: config.redisPrefix, now: () => new Date() },
    close: async () => {
      await Promise.all([db.destroy(), redis.quit()]);
      logger.flush();
    },
  };
}
