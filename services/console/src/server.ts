import { postgresCheck, Readiness, redisCheck, type StartedService, startWith, servedMetrics, storageCheck } from '@partner/http';
import { createApp } from './app.js';
import type { ConsoleConfig } from './config.js';
import { createDeps } from './deps.js';
import { startAssetSweep } from './asset-sweep/asset-sweep.js';
import { startHousekeeping } from './housekeeping/housekeeping.js';

/** Ready with Postgres, Redis and the asset storage; the webhooks service it calls for some pages is not checked. */
export async function startConsole(config: ConsoleConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  const housekeeping = startHousekeeping(deps);
  const assetSweep = startAssetSweep(deps, config.sweep);
  const readiness = new Readiness({
    checks: [postgresCheck(deps.db), redisCheck(deps.redis), storageCheck(deps.storage)],
    timeoutMs: config.readinessCheckTimeoutMs,
    logger: deps.logger,
  });
  return startWith(
    {
      app: createApp(deps),
      logger: deps.logger,
      readiness,
      stopBackground: async () => {
        housekeeping.stop();
        await assetSweep.stop();
      },
      closeDeps,
      metrics: servedMetrics(deps.metrics, config.metrics),
    },
    { port: config.port, host: config.host, shutdown: config.shutdown },
  );
}
