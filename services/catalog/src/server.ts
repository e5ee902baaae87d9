import { connectRedis, subscribeToInvalidations } from '@partner/kit';
import {
  accessInvalidations,
  AssetSigner,
  createServiceDeps,
  LocalDirectoryStorage,
  startWith,
  type StartedService,
} from '@partner/platform';
import { createApp } from './app.js';
import type { CatalogConfig } from './config.js';
import { startHousekeeping } from './items/housekeeping.js';
import { ItemAccessCache } from './items/item-access-cache.js';

export async function startCatalog(config: CatalogConfig): Promise<StartedService> {
  // The catalog writes only usage counters and idempotency records: commits need not wait for the disk
  // (a Postgres crash may forget the last fraction of a second of counts; docs/decisions.md).
  const { deps, close } = await createServiceDeps('catalog', config, { synchronousCommit: false });
  const itemAccess = new ItemAccessCache(deps.db, { ttlMs: config.accessCacheTtlMs });
  const subscriber = await connectRedis(config.redisUrl, (err) => deps.logger.error({ err }, 'redis subscriber error'));
  await subscribeToInvalidations(subscriber, { channel: accessInvalidations, prefix: config.redisPrefix }, itemAccess, deps.logger);
  const app = createApp({
    ...deps,
    internalPublicKey: config.internalPublicKey,
    cursorSecret: config.cursorSecret,
    itemAccess,
    signer: new AssetSigner({ secret: config.assetSecret, publicBaseUrl: config.publicBaseUrl, ttlSeconds: config.assetUrlTtlSeconds }),
    storage: new LocalDirectoryStorage(config.assetStorageDir),
    publicBaseUrl: config.publicBaseUrl,
    menuPageKeySecret: config.menuPageKeySecret,
    menuPageKeyEnvironment: config.menuPageKeyEnvironment,
  });
  const housekeeping = startHousekeeping(deps);
  return startWith(
    {
      app,
      logger: deps.logger,
      closeDeps: async () => {
        housekeeping.stop();
        await subscriber.quit();
        await close();
      },
    },
    config.port,
  );
}
