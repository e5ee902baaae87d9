import { type StartedService, startWith } from '@partner/http';
import { createApp } from './app.js';
import type { WebhooksConfig } from './config.js';
import { createDeps } from './deps.js';
import { Dispatcher } from './dispatcher/dispatcher.js';
import { OwnerMailer } from './dispatcher/owner-mailer.js';
import { resealEndpointSecrets } from './endpoints/endpoint-secrets.js';

/** The endpoint and delivery API, and (unless switched off) the dispatcher loop in the same process. */
export async function startWebhooks(config: WebhooksConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  if (deps.targets.allowPrivate) {
    deps.logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: http:// and private targets are allowed, for local development and tests only');
  }
  // After a key rotation, secrets under the older key are sealed again before anything is sent.
  await resealEndpointSecrets(deps.db, deps.sealing, deps.logger);
  const app = createApp(deps);
  const mailer = config.smtpUrl ? new OwnerMailer(config.smtpUrl, config.notifyFrom, deps.logger) : undefined;
  const dispatcher = new Dispatcher({
    db: deps.db,
    logger: deps.logger,
    sender: deps.sender,
    sealing: deps.sealing,
    now: deps.now,
    retryBaseMs: config.retryBaseMs,
    leaseMs: config.leaseMs,
    menuQuietMs: config.menuQuietMs,
    menuMaxDelayMs: config.menuMaxDelayMs,
    concurrency: config.concurrency,
    ownerConcurrency: config.ownerConcurrency,
    housekeepingMs: config.housekeepingMs,
    retention: config.retention,
    mailer,
  });
  if (config.dispatcherEnabled) dispatcher.start();
  return startWith(
    {
      app,
      logger: deps.logger,
      closeDeps: async () => {
        await dispatcher.stop();
        mailer?.close();
        await closeDeps();
      },
    },
    config.port,
  );
}
