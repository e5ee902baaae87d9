import { createServiceDeps, startWith, type StartedService } from '@partner/platform';
import { createApp } from './app.js';
import type { WebhooksConfig } from './config.js';
import { Dispatcher } from './dispatcher/dispatcher.js';
import { OwnerMailer } from './dispatcher/owner-mailer.js';
import { WebhookSender } from './dispatcher/sender.js';

/** The endpoint and delivery API, and (unless switched off) the dispatcher loop in the same process. */
export async function startWebhooks(config: WebhooksConfig): Promise<StartedService> {
  const { deps, close } = await createServiceDeps('webhooks', config);
  const targets = { allowPrivate: config.allowPrivateTargets };
  if (targets.allowPrivate) deps.logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: for local development and tests only');
  const app = createApp({ ...deps, internalPublicKey: config.internalPublicKey, cursorSecret: config.cursorSecret, targets });
  const sender = new WebhookSender(targets);
  const mailer = config.smtpUrl ? new OwnerMailer(config.smtpUrl, config.notifyFrom, deps.logger) : undefined;
  const dispatcher = new Dispatcher({
    db: deps.db,
    logger: deps.logger,
    sender,
    now: deps.now,
    retryBaseMs: config.retryBaseMs,
    leaseMs: config.leaseMs,
    menuQuietMs: config.menuQuietMs,
    menuMaxDelayMs: config.menuMaxDelayMs,
    mailer,
  });
  if (config.dispatcherEnabled) dispatcher.start();
  return startWith(
    {
      app,
      logger: deps.logger,
      closeDeps: async () => {
        await dispatcher.stop();
        await sender.close();
        mailer?.close();
        await close();
      },
    },
    config.port,
  );
}
