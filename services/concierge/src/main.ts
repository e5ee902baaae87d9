import { listen, shutdownOnSignals } from '@partner/kit';
import { createServiceDeps, loadServiceConfig } from '@partner/platform';
import { createApp } from './app.js';

const config = loadServiceConfig(process.env, 'CONCIERGE_PORT', 8083);
const { deps, close } = await createServiceDeps('concierge', config);
const server = await listen(createApp({ ...deps, internalPublicKey: config.internalPublicKey }), config.port);
deps.logger.info({ port: server.port }, 'concierge listening');
shutdownOnSignals({ logger: deps.logger, server, closeDeps: close });
