import { fileURLToPath } from 'node:url';
import { createLogger, Readiness, type StartedService, startWith, upstreamCheck } from '@partner/http';
import { createApp } from './app.js';
import type { DashboardConfig } from './config.js';

/** The built web app, `dist/web`, found alike from `dist/` (the service) and `src/` (tests on the sources). */
export const WEB_ROOT = fileURLToPath(new URL('../dist/web/', import.meta.url));

/** Ready while console answers: without it the dashboard can show nothing. */
export async function startDashboard(config: DashboardConfig, options: { webRoot?: string } = {}): Promise<StartedService> {
  const logger = createLogger({ service: 'dashboard', level: config.logLevel });
  const readiness = new Readiness({ checks: [upstreamCheck('console', config.consoleUrl)], timeoutMs: 1000, logger });
  const app = createApp({
    webRoot: options.webRoot ?? WEB_ROOT,
    consoleUrl: config.consoleUrl,
    publicBaseUrl: config.publicBaseUrl,
    consoleTimeoutMs: config.consoleTimeoutMs,
    logger,
  });
  return startWith(
    { app, logger, readiness, closeDeps: async () => {} },
    { port: config.port, host: config.host, shutdown: config.shutdown },
  );
}
