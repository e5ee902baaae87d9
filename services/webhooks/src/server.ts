import { createServiceDeps, startWith, type ServiceConfig, type StartedService } from '@partner/platform';
import { createApp } from './app.js';

export async function startWebhooks(config: ServiceConfig): Promise<StartedService> {
  const { deps, close } = await createServiceDeps('webhooks', config);
  return startWith(
    { app: createApp({ ...deps, internalPublicKey: config.internalPublicKey }), logger: deps.logger, closeDeps: close },
    config.port,
  );
}
