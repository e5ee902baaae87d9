import { loadConfigOrExit, shutdownOnSignals } from '@partner/http';
import { loadConsoleConfig } from './config.js';
import { startConsole } from './server.js';

const service = await startConsole(loadConfigOrExit(() => loadConsoleConfig(process.env)));
service.logger.info({ port: service.port }, 'console listening');
shutdownOnSignals({ logger: service.logger, stop: service.shutdown });
