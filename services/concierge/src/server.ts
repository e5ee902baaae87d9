import { AssetSigner, createServiceDeps, startWith, type StartedService } from '@partner/platform';
import { createApp } from './app.js';
import type { ConciergeConfig } from './config.js';
import { MenuIndexCache } from './grounding/menu-index.js';
import { OpenAIChatProvider } from './providers/openai-provider.js';
import { SandboxChatProvider } from './providers/sandbox-provider.js';

export async function startConcierge(config: ConciergeConfig): Promise<StartedService> {
  const { deps, close } = await createServiceDeps('concierge', config);
  const app = createApp({
    ...deps,
    internalPublicKey: config.internalPublicKey,
    menuIndexes: new MenuIndexCache(),
    liveProvider: config.openai ? new OpenAIChatProvider(config.openai) : null,
    sandboxProvider: new SandboxChatProvider(),
    heartbeatMs: config.heartbeatMs,
    publicBaseUrl: config.publicBaseUrl,
    signer: config.assets ? new AssetSigner(config.assets) : null,
  });
  return startWith({ app, logger: deps.logger, closeDeps: close }, config.port);
}
