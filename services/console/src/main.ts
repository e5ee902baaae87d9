import { createDb } from '@partner/db';
import { connectRedis, createLogger, listen, shutdownOnSignals } from '@partner/kit';
import { createApp } from './app.js';
import { loadConsoleConfig } from './config.js';

const config = loadConsoleConfig(process.env);
const logger = createLogger({ service: 'console', level: config.logLevel });
const db = createDb({ url: config.databaseUrl, applicationName: 'console' });
const redis = await connectRedis(config.redisUrl, (err) => logger.error({ err }, 'redis error'));
const app = createApp({
  db,
  redis,
  redisPrefix: config.redisPrefix,
  logger,
  adminToken: config.adminToken,
  publicUrl: config.publicUrl,
  now: () => new Date(),
});
const server = await listen(app, config.port);
logger.info({ port: server.port }, 'console listening');
shutdownOnSignals({
  logger,
  server,
  closeDeps: async () => {
    await Promise.all([db.destroy(), redis.quit()]);
  },
});
