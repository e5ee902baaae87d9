import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadConciergeConfig } from './config.js';
import { startConcierge } from './server.js';

const service = await startConcierge(loadConfigOrExit(() => loadConciergeConfig(process.env)));
service.logger.info({ port: service.port }, 'concierge listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
