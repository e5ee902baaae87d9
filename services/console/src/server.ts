import { createDb } from '@partner/db';
import { connectRedis, createLogger } from '@partner/kit';
import { LocalDirectoryStorage, startWith, type StartedService } from '@partner/platform';
import { createApp } from './app.js';
import type { ConsoleConfig } from './config.js';

export async function startConsole(config: ConsoleConfig): Promise<StartedService> {
  const logger = createLogger({ service: 'console', level: config.logLevel });
  const db = createDb({
    url: config.databaseUrl,
    applicationName: 'console',
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost'),
  });
  const redis = await connectRedis(config.redisUrl, (err) => logger.error({ err }, 'redis error'));
  const app = createApp({
    db,
    redis,
    redisPrefix: config.redisPrefix,
    logger,
    adminToken: config.adminToken,
    publicUrl: config.publicUrl,
    now: () => new Date(),
    storage: new LocalDirectoryStorage(config.assetStorageDir),
    maxModelBytes: config.maxModelBytes,
    cursorSecret: config.cursorSecret,
    menuPageKeySecret: config.menuPageKeySecret,
    menuPageKeyEnvironment: config.menuPageKeyEnvironment,
    publicBaseUrl: config.publicBaseUrl,
  });
  const closeDeps = async () => {
    await Promise.all([db.destroy(), redis.quit()]);
    logger.flush();
  };
  return startWith({ app, logger, closeDeps }, config.port);
}
