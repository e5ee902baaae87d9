import { storageFromConfig, type AssetStorage } from '@partner/assets';
import { createServiceDeps, type ServiceDeps } from '@partner/http';
import type { ConsoleConfig } from './config.js';
import { WebhooksServiceClient } from './webhooks/webhooks.client.js';

export interface ConsoleDeps extends ServiceDeps {
  adminToken: string;
  publicUrl: string;
  storage: AssetStorage;
  maxModelBytes: number;
  webhooks: WebhooksServiceClient;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
  publicBaseUrl: string;
}

export async function createDeps(config: ConsoleConfig): Promise<{ deps: ConsoleDeps; closeDeps: () => Promise<void> }> {
  const { deps, closeDeps } = await createServiceDeps('console', config, { purgesIdempotencyRecords: false });
  const storage = storageFromConfig(config.storage);
  return {
    deps: {
      ...deps,
      adminToken: config.adminToken,
      publicUrl: config.publicUrl,
      storage: storage.storage,
      maxModelBytes: config.maxModelBytes,
      webhooks: new WebhooksServiceClient({ baseUrl: config.webhooksUrl, internalPrivateKey: config.internalPrivateKey }),
      menuPageKeySecret: config.menuPageKeySecret,
      menuPageKeyEnvironment: config.menuPageKeyEnvironment,
      publicBaseUrl: config.publicBaseUrl,
    },
    closeDeps: async () => {
      storage.close();
      await closeDeps();
    },
  };
}
