import { listen, type RunningServer, type StartedService } from '@partner/http';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createDeps } from './deps.js';
import { handleHttpEdgeCases } from './protocol/http-edge-cases.js';

export async function startGateway(config: GatewayConfig, options: Parameters<typeof createDeps>[1] = {}): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config, options);
  const app = createApp(deps);
  let server: RunningServer;
  try {
    server = await listen(app, config.port);
  } catch (err) {
    await closeDeps();
    throw err;
  }
  handleHttpEdgeCases(server.server, app, deps.logger);
  return {
    port: server.port,
    logger: deps.logger,
    stop: async () => {
      await server.close();
      await closeDeps();
    },
  };
}
