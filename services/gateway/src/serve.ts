import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './server.js';

const service = await startGateway(loadConfigOrExit(() => loadGatewayConfig(process.env)));
service.logger.info({ port: service.port }, 'gateway listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
