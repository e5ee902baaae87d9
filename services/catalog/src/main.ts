import { listen, shutdownOnSignals } from '@partner/kit';
import { createServiceDeps } from '@partner/platform';
import { createApp } from './app.js';
import { loadCatalogConfig } from './config.js';

const config = loadCatalogConfig(process.env);
const { deps, close } = await createServiceDeps('catalog', config);
const server = await listen(createApp({ ...deps, internalPublicKey: config.internalPublicKey, cursorSecret: config.cursorSecret }), config.port);
deps.logger.info({ port: server.port }, 'catalog listening');
shutdownOnSignals({ logger: deps.logger, server, closeDeps: close });
