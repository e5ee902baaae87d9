import { createServiceDeps, startWith, type ServiceConfig, type StartedService } from '@partner/platform';
import { createApp } from './app.js';

export async function startConcierge(config: ServiceConfig): Promise<StartedService> {
  const { deps, close } = await createServiceDeps('concierge', config);
  return startWith(
    { app: createApp({ ...deps, internalPublicKey: config.internalPublicKey }), logger: deps.logger, closeDeps: close },
    config.port,
  );
}
