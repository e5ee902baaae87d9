import { loadConfigOrExit, shutdownOnSignals } from '@partner/kit';
import { loadServiceConfig } from '@partner/platform';
import { startConcierge } from './server.js';

const service = await startConcierge(loadConfigOrExit(() => loadServiceConfig(process.env, 'CONCIERGE_PORT', 8083)));
service.logger.info({ port: service.port }, 'concierge listening');
shutdownOnSignals({ logger: service.logger, stop: service.stop });
