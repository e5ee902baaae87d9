import { type StartedService, startWith } from '@partner/http';
import { createApp } from './app.js';
import type { ConciergeConfig } from './config.js';
import { createDeps } from './deps.js';

export async function startConcierge(config: ConciergeConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  return startWith({ app: createApp(deps), logger: deps.logger, closeDeps }, config.port);
}
