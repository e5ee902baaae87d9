import { postgresCheck, Readiness, redisCheck, type StartedService, startWith, servedMetrics, storageCheck } from '@partner/http';
import { createApp } from './app.js';
import type { CatalogConfig } from './config.js';
import { createDeps } from './deps.js';

export async function startCatalog(config: CatalogConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  const readiness = new Readiness({
    checks: [postgresCheck(deps.db), redisCheck(deps.redis), storageCheck(deps.storage)],
    timeoutMs: config.readinessCheckTimeoutMs,
    logger: deps.logger,
  });
  return startWith(
    { app: createApp(deps), logger: deps.logger, readiness, closeDeps, metrics: servedMetrics(deps.metrics, config.metrics) },
    { port: config.port, shutdown: config.shutdown },
  );
}
