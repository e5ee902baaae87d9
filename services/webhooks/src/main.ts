import { listen, shutdownOnSignals } from '@partner/kit';
import { createServiceDeps, loadServiceConfig } from '@partner/platform';
import { createApp } from './app.js';

const config = loadServiceConfig(process.env, 'WEBHOOKS_PORT', 8082);
const { deps, close } = await createServiceDeps('webhooks', config);
const server = await listen(createApp({ ...deps, internalPublicKey: config.internalPublicKey }), config.port);
deps.logger.info({ port: server.port }, 'webhooks listening');
shutdownOnSignals({ logger: deps.logger, server, closeDeps: close });
