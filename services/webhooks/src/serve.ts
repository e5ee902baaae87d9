import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadWebhooksConfig } from './config.js';
import { startWebhooks } from './server.js';

const service = await startWebhooks(loadConfigOrExit(() => loadWebhooksConfig(process.env)));
service.logger.info({ port: service.port }, 'webhooks listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
