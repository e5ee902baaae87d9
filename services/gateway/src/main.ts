import { listen, shutdownOnSignals } from '@partner/kit';
import { createApp } from './app.js';
import { loadGatewayConfig } from './config.js';
import { createDeps } from './deps.js';

const config = loadGatewayConfig(process.env);
const { deps, close } = await createDeps(config);
const server = await listen(createApp(deps), config.port);
deps.logger.info({ port: server.port }, 'gateway listening');
shutdownOnSignals({ logger: deps.logger, server, closeDeps: close });
