import type { AssetSigner, ServiceDeps } from '@partner/platform';
import type { MenuIndexCache } from './grounding/menu-index.js';
import type { ChatProvider } from './providers/provider.js';

export interface ConciergeDeps extends ServiceDeps {
  internalPublicKey: string;
  menuIndexes: MenuIndexCache;
  /** For live keys; null when no model is configured. */
  liveProvider: ChatProvider | null;
  sandboxProvider: ChatProvider;
  heartbeatMs: number;
  /** Signs card thumbnails; null leaves them out. */
  signer: AssetSigner | null;
}
