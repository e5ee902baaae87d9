import { postgresCheck, Readiness, redisCheck, type StartedService, startWith, servedMetrics } from '@partner/http';
import { createApp } from './app.js';
import type { ConciergeConfig } from './config.js';
import { createDeps } from './deps.js';

/** Ready with Postgres and Redis; the model provider is not checked (an outage there fails turns, not the service). */
export async function startConcierge(config: ConciergeConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  const readiness = new Readiness({
    checks: [postgresCheck(deps.db), redisCheck(deps.redis)],
    timeoutMs: config.readinessCheckTimeoutMs,
    logger: deps.logger,
  });
  return startWith(
    { app: createApp(deps), logger: deps.logger, readiness, closeDeps, metrics: servedMetrics(deps.metrics, config.metrics) },
    { port: config.port, shutdown: config.shutdown },
  );
}
