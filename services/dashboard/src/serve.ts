import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadDashboardConfig } from './config.js';
import { startDashboard } from './server.js';

const service = await startDashboard(loadConfigOrExit(() => loadDashboardConfig(process.env)));
service.logger.info({ port: service.port }, 'dashboard listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
