import { Readiness, type StartedService, startWith, servedMetrics } from '@partner/http';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createDeps } from './deps.js';
import { handleHttpEdgeCases } from './protocol/http-edge-cases.js';

export async function startGateway(config: GatewayConfig, options: Parameters<typeof createDeps>[1] = {}): Promise<StartedService> {
  const { deps, checks, closeDeps } = await createDeps(config, options);
  const readiness = new Readiness({ checks, timeoutMs: config.readinessCheckTimeoutMs, logger: deps.logger });
  return startWith(
    {
      app: createApp(deps),
      logger: deps.logger,
      readiness,
      closeDeps,
      onServer: (server, listener) => handleHttpEdgeCases(server, listener, deps.logger),
      metrics: servedMetrics(deps.metrics, config.metrics),
    },
    { port: config.port, shutdown: config.shutdown },
  );
}
