import { storageFromConfig, type AssetStorage } from '@partner/assets';
import { createServiceDeps, type ServiceDeps } from '@partner/http';
import { Sessions } from './accounts/sessions.js';
import { SignInLimits } from './accounts/sign-in-limits.js';
import type { SignInDeps } from './accounts/sign-in.service.js';
import type { ConsoleConfig } from './config.js';
import { WebhooksServiceClient } from './webhooks/webhooks.client.js';

export interface ConsoleDeps extends ServiceDeps, SignInDeps {
  adminToken: string;
  publicUrl: string;
  storage: AssetStorage;
  maxModelBytes: number;
  webhooks: WebhooksServiceClient;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
  publicBaseUrl: string;
  /** CONSOLE_TRUST_PROXY_HOPS: whose X-Forwarded-For names the client. */
  trustProxyHops: number;
}

export async function createDeps(config: ConsoleConfig): Promise<{ deps: ConsoleDeps; closeDeps: () => Promise<void> }> {
  const { deps, closeDeps } = await createServiceDeps('console', config, { purgesIdempotencyRecords: false });
  const storage = await storageFromConfig(config.storage);
  // nodemailer (about 25 MB a process) is loaded only when mail is configured.
  const signInMailer =
    config.mail && new (await import('./accounts/sign-in-mailer.js')).SignInMailer(config.mail.smtpUrl, config.mail.from, deps.logger);
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
      trustProxyHops: config.trustProxyHops,
      sessions: new Sessions(deps.db, { publicUrl: config.publicUrl, ttlMs: config.sessionTtlMs }),
      signInLimits: new SignInLimits(deps.redis, deps.redisPrefix),
      signInMailer,
    },
    closeDeps: async () => {
      storage.close();
      signInMailer?.close();
      await closeDeps();
    },
  };
}
