import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadCatalogConfig } from './config.js';
import { startCatalog } from './server.js';

const service = await startCatalog(loadConfigOrExit(() => loadCatalogConfig(process.env)));
service.logger.info({ port: service.port }, 'catalog listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
