import { startWith, type StartedService } from '@partner/platform';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createDeps } from './deps.js';

export async function startGateway(config: GatewayConfig): Promise<StartedService> {
  const { deps, close } = await createDeps(config);
  return startWith({ app: createApp(deps), logger: deps.logger, closeDeps: close }, config.port);
}
