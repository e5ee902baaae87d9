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
  /** The gateway's origin: cards link to the public menu page there unless the restaurant has its own. */
  publicBaseUrl: string;
  /** Signs card thumbnails; null leaves them out. */
  signer: AssetSigner | null;
}
