import { type StartedService, startWith } from '@partner/http';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createDeps } from './deps.js';

export async function startGateway(config: GatewayConfig, options: Parameters<typeof createDeps>[1] = {}): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config, options);
  return startWith({ app: createApp(deps), logger: deps.logger, closeDeps }, config.port);
}
