import { createServiceDeps, startWith, type StartedService } from '@partner/platform';
import { createApp } from './app.js';
import type { CatalogConfig } from './config.js';

export async function startCatalog(config: CatalogConfig): Promise<StartedService> {
  const { deps, close } = await createServiceDeps('catalog', config);
  const app = createApp({ ...deps, internalPublicKey: config.internalPublicKey, cursorSecret: config.cursorSecret });
  return startWith({ app, logger: deps.logger, closeDeps: close }, config.port);
}
