import { type StartedService, startWith } from '@partner/http';
import { createApp } from './app.js';
import type { CatalogConfig } from './config.js';
import { createDeps } from './deps.js';

export async function startCatalog(config: CatalogConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  return startWith({ app: createApp(deps), logger: deps.logger, closeDeps }, config.port);
}
