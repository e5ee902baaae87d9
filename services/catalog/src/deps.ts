import type { AssetSigner, AssetStorage, ServiceDeps } from '@partner/platform';

export interface CatalogDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorSecret: string;
  signer: AssetSigner;
  storage: AssetStorage;
  publicBaseUrl: string;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
}
