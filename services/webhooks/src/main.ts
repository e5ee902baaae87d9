import { loadConfigOrExit, shutdownOnSignals } from '@partner/kit';
import { loadServiceConfig } from '@partner/platform';
import { startWebhooks } from './server.js';

const service = await startWebhooks(loadConfigOrExit(() => loadServiceConfig(process.env, 'WEBHOOKS_PORT', 8082)));
service.logger.info({ port: service.port }, 'webhooks listening');
shutdownOnSignals({ logger: service.logger, stop: service.stop });
