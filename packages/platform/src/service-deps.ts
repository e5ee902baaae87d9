import { createDb, type Db, type DbOptions } from '@partner/db';
import { connectRedis, createLogger, type Logger, type RedisClient } from '@partner/kit';
import type { ServiceConfig } from './service-config.js';
import { UsageMeter } from './usage-meter.js';

export interface ServiceDeps {
  db: Db;
  usageMeter: UsageMeter;
  redis: RedisClient;
  logger: Logger;
  redisPrefix: string;
  now: () => Date;
}

/** The pools every service holds, and the one function that closes them on shutdown. */
export async function createServiceDeps(
  service: string,
  config: ServiceConfig,
  options: Pick<DbOptions, 'synchronousCommit'> = {},
): Promise<{ deps: ServiceDeps; close: () => Promise<void> }> {
  const logger = createLogger({ service, level: config.logLevel });
  const db = createDb({
    url: config.databaseUrl,
    applicationName: service,
    ...options,
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost'),
  });
  const redis = await connectRedis(config.redisUrl, (err) => logger.error({ err }, 'redis error'));
  return {
    deps: { db, usageMeter: new UsageMeter(db), redis, logger, redisPrefix: config.redisPrefix, now: () => new Date() },
    close: async () => {
      await Promise.all([db.destroy(), redis.quit()]);
      logger.flush();
    },
  };
}
