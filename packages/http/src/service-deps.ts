import { createDb, type Db, type DbOptions } from '@partner/db';
import { startIdempotencyPurge } from './idempotency.js';
import { describeFault, FaultLog } from './dependency-faults.js';
import { AccessLog } from './access-log.js';
import { createLogger, type Logger } from './logger.js';
import { ServiceMetrics } from './metrics.js';
import { closeRedis, connectRedis, type RedisClient } from './redis.js';
import type { CommonConfig } from './config.js';

export interface ServiceDeps {
  db: Db;
  redis: RedisClient;
  logger: Logger;
  /** Background faults (a Redis client reconnecting, idle connections lost), logged once per burst. */
  faults?: FaultLog;
  redisPrefix: string;
  now: () => Date;
  /** `MAX_BODY_BYTES`: larger bodies are refused with 413 before they are parsed. */
  maxBodyBytes: number;
  /** `REQUEST_DEADLINE_MS`; the frame's default (8 s) when absent. */
  requestDeadlineMs?: number;
  /** Present when `METRICS_PORT` is set: the service's Prometheus registry. */
  metrics?: ServiceMetrics;
  /** One line per request (`ACCESS_LOG_SUCCESS_SAMPLE`). */
  accessLog?: AccessLog;
}

/** A service's logger and its access log, as `LOG_LEVEL`, `LOG_FORMAT` and `ACCESS_LOG_SUCCESS_SAMPLE` say. */
export function createLogs(service: string, config: Pick<CommonConfig, 'logLevel' | 'logFormat' | 'accessLogSuccessSample'>) {
  const pretty = config.logFormat === 'pretty';
  return {
    logger: createLogger({ service, level: config.logLevel, pretty }),
    accessLog: AccessLog.create({ service, level: config.logLevel, successSample: config.accessLogSuccessSample, pretty }),
  };
}

/**
 * The pools and clock every service holds, and the one function that closes them on shutdown. A
 * service behind the gateway runs the idempotency middleware and so also purges its records.
 */
export async function createServiceDeps(
  service: string,
  config: CommonConfig,
  options: Pick<DbOptions, 'synchronousCommit'> & { purgesIdempotencyRecords: boolean },
): Promise<{ deps: ServiceDeps; faults: FaultLog; closeDeps: () => Promise<void> }> {
  const { logger, accessLog } = createLogs(service, config);
  const faults = new FaultLog(logger);
  const db = createDb({
    url: config.databaseUrl,
    max: config.databasePoolMax,
    applicationName: service,
    synchronousCommit: options.synchronousCommit,
    deadlines: config.dbDeadlines,
    onIdleError: (err) => faults.note('postgres:idle-connection-lost', { fault: describeFault(err) }, 'idle database connection lost'),
  });
  const redis = await connectRedis(config.redisUrl, onRedisError(faults, 'redis'), { commandTimeoutMs: config.redisCommandTimeoutMs });
  const purge = options.purgesIdempotencyRecords ? startIdempotencyPurge(db, logger) : null;
  return {
    faults,
    deps: {
      db,
      redis,
      logger,
      faults,
      redisPrefix: config.redisPrefix,
      now: () => new Date(),
      maxBodyBytes: config.maxBodyBytes,
      requestDeadlineMs: config.requestDeadlineMs,
      metrics: config.metrics ? new ServiceMetrics(service, { db }) : undefined,
      accessLog,
    },
    closeDeps: async () => {
      purge?.stop();
      await Promise.all([db.destroy(), closeRedis(redis)]);
      faults.flush();
      accessLog.flush();
      logger.flush();
    },
  };
}

/**
 * A Redis client's error handler: while Redis is away a client reports every reconnection attempt;
 * one line per burst (`<name>:error`) says as much as hundreds.
 */
export function onRedisError(faults: FaultLog, name: string): (err: Error) => void {
  return (err) => faults.note(`${name}:error`, { fault: describeFault(err) }, `${name} error`);
}
