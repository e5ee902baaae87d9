import { ConciergeMetrics } from './concierge-metrics.js';
import { AssetSigner } from '@partner/assets';
import { UsageMeter } from '@partner/entitlements';
import { createServiceDeps, type ServiceDeps } from '@partner/http';
import type { ConciergeConfig } from './config.js';
import { MenuIndexBuilds } from './grounding/menu-index-builds.js';
import { MenuIndexCache } from './grounding/menu-index-cache.js';
import type { ChatProvider } from './providers/provider.js';
import { SandboxChatProvider } from './providers/sandbox-provider.js';
import { VisitorShares } from './chat/visitor-share.js';

export interface ConciergeDeps extends ServiceDeps {
  internalPublicKey: string;
  usageMeter: UsageMeter;
  /** What one visitor of a restaurant's pages may spend of its allowance (embed turns of publishable keys). */
  visitorShares: VisitorShares;
  menuIndexes: MenuIndexCache;
  /** For live keys; null when no model is configured. */
  liveProvider: ChatProvider | null;
  sandboxProvider: ChatProvider;
  heartbeatMs: number;
  /** The gateway's origin: cards link to the public menu page there unless the restaurant has its own. */
  publicBaseUrl: string;
  /** Signs card thumbnails; null leaves them out. */
  signer: AssetSigner | null;
  /** Present when the service keeps metrics. */
  conciergeMetrics?: ConciergeMetrics;
}

export async function createDeps(config: ConciergeConfig): Promise<{ deps: ConciergeDeps; closeDeps: () => Promise<void> }> {
  const { deps, closeDeps } = await createServiceDeps('concierge', config, {
    purgesIdempotencyRecords: true,
    // Its writes are usage counters and idempotency records, as catalog's (docs/decisions.md).
    synchronousCommit: false,
  });
  const indexBuilds = new MenuIndexBuilds({
    database: { url: config.databaseUrl, applicationName: 'concierge-index', deadlines: config.dbDeadlines },
    threads: config.menuIndex.buildThreads,
  });
  return {
    deps: {
      ...deps,
      internalPublicKey: config.internalPublicKey,
      usageMeter: new UsageMeter(deps.db),
      visitorShares: new VisitorShares(deps.redis, deps.redisPrefix, config.visitorShare),
      menuIndexes: new MenuIndexCache(indexBuilds, { maxBytes: config.menuIndex.maxBytes, logger: deps.logger }),
      // The OpenAI client (about 20 MB a process) is loaded only when a model is configured.
      liveProvider: config.openai ? new (await import('./providers/openai-provider.js')).OpenAIChatProvider(config.openai) : null,
      sandboxProvider: new SandboxChatProvider(),
      heartbeatMs: config.heartbeatMs,
      publicBaseUrl: config.publicBaseUrl,
      signer: config.assets ? new AssetSigner(config.assets) : null,
      conciergeMetrics: deps.metrics && new ConciergeMetrics(deps.metrics),
    },
    closeDeps: async () => {
      await Promise.all([indexBuilds.close(), closeDeps()]);
    },
  };
}
