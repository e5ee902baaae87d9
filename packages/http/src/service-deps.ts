import { createDb, type Db, type DbOptions } from '@partner/db';
import { startIdempotencyPurge } from './idempotency.js';
import { createLogger, type Logger } from './logger.js';
import { connectRedis, type RedisClient } from './redis.js';
import type { CommonConfig } from './config.js';

export interface ServiceDeps {
  db: Db;
  redis: RedisClient;
  logger: Logger;
  redisPrefix: string;
  now: () => Date;
  /** `MAX_BODY_BYTES`: larger bodies are refused with 413 before they are parsed. */
  maxBodyBytes: number;
}

/**
 * The pools and clock every service holds, and the one function that closes them on shutdown. A
 * service behind the gateway runs the idempotency middleware and so also purges its records.
 */
export async function createServiceDeps(
  service: string,
  config: CommonConfig,
  options: Pick<DbOptions, 'synchronousCommit'> & { purgesIdempotencyRecords: boolean },
): Promise<{ deps: ServiceDeps; closeDeps: () => Promise<void> }> {
  const logger = createLogger({ service, level: config.logLevel });
  const db = createDb({
    url: config.databaseUrl,
    applicationName: service,
    synchronousCommit: options.synchronousCommit,
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost'),
  });
  const redis = await connectRedis(config.redisUrl, (err) => logger.error({ err }, 'redis error'));
  const purge = options.purgesIdempotencyRecords ? startIdempotencyPurge(db, logger) : null;
  return {
    deps: { db, redis, logger, redisPrefix: config.redisPrefix, now: () => new Date(), maxBodyBytes: config.maxBodyBytes },
    closeDeps: async () => {
      purge?.stop();
      await Promise.all([db.destroy(), redis.quit()]);
      logger.flush();
    },
  };
}
