import type { ItemAccessCache } from './items/item-access-cache.js';
import type { AssetSigner, AssetStorage, ServiceDeps } from '@partner/platform';

export interface CatalogDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorSecret: string;
  signer: AssetSigner;
  itemAccess: ItemAccessCache;
  storage: AssetStorage;
  publicBaseUrl: string;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
}
