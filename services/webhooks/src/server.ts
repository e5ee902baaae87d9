import { createDb, notifyOutboxChannel } from '@partner/db';
import { describeFault, postgresCheck, Readiness, redisCheck, type StartedService, startWith, servedMetrics } from '@partner/http';
import { createApp } from './app.js';
import type { WebhooksConfig } from './config.js';
import { createDeps } from './deps.js';
import { Dispatcher } from './dispatcher/dispatcher.js';
import { OutboxListener } from './dispatcher/outbox-listener.js';
import { resealEndpointSecrets } from './endpoints/endpoint-secrets.js';
import { WebhooksMetrics } from './webhooks-metrics.js';

/** The endpoint and delivery API, and (unless switched off) the dispatcher loop in the same process. */
export async function startWebhooks(config: WebhooksConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  if (deps.targets.allowPrivate) {
    deps.logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: http:// and private targets are allowed, for local development and tests only');
  }
  // After a key rotation, secrets under the older key are sealed again before anything is sent.
  await resealEndpointSecrets(deps.db, deps.sealing, deps.logger);
  const app = createApp(deps);
  // nodemailer (about 25 MB a process) is loaded only when mail is configured.
  const mailer = config.smtpUrl
    ? new (await import('./dispatcher/owner-mailer.js')).OwnerMailer(config.smtpUrl, config.notifyFrom, deps.logger)
    : undefined;
  // The dispatcher's own pool commits asynchronously: a write of its that a Postgres crash undoes only
  // makes an attempt go again (at-least-once holds, docs/decisions.md). The API's writes (endpoints,
  // resends, recoveries) stay synchronous on deps.db.
  const dispatcherDb = config.dispatcherEnabled
    ? createDb({
        url: config.databaseUrl,
        max: config.databasePoolMax,
        applicationName: 'webhooks-dispatcher',
        synchronousCommit: false,
        deadlines: config.dbDeadlines,
        onIdleError: (err) =>
          deps.faults?.note('postgres:idle-connection-lost', { fault: describeFault(err) }, 'idle database connection lost'),
      })
    : deps.db;
  const webhooksMetrics = deps.metrics && new WebhooksMetrics(deps.metrics, deps.db);
  const dispatcher = new Dispatcher({
    db: dispatcherDb,
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
    onAttempt: webhooksMetrics?.noteAttempt,
  });
  // New events wake the dispatcher at once; its loops poll only once a second, for what no outbox write
  // announces and for whenever the listener is disconnected (docs/decisions.md).
  let listener: OutboxListener | null = null;
  if (config.dispatcherEnabled) {
    listener = new OutboxListener({
      url: config.listenUrl,
      logger: deps.logger,
      onWake: () => dispatcher.wake(),
      connectTimeoutMs: config.dbDeadlines.connectTimeoutMs,
      // Through the dispatcher's pool (through a PgBouncer if there is one): notifications reach every
      // connection to the same database, and a listener that hears none of them is routed wrong.
      probe: (payload) => notifyOutboxChannel(dispatcherDb, payload),
    });
    webhooksMetrics?.watchListener(listener);
    listener.start();
    dispatcher.start(1_000);
  }
  // The API's pool, not the dispatcher's: that one is busy by design under load, and both reach the
  // same Postgres.
  const readiness = new Readiness({
    checks: [postgresCheck(deps.db), redisCheck(deps.redis)],
    timeoutMs: config.readinessCheckTimeoutMs,
    logger: deps.logger,
  });
  return startWith(
    {
      app,
      logger: deps.logger,
      readiness,
      // Stops claiming as shutdown begins (other replicas take the rest), finishes the attempts in flight.
      stopBackground: async () => {
        await Promise.all([listener?.stop(), dispatcher.stop()]);
      },
      closeDeps: async () => {
        if (dispatcherDb !== deps.db) await dispatcherDb.destroy();
        mailer?.close();
        await closeDeps();
      },
      metrics: servedMetrics(deps.metrics, config.metrics),
    },
    { port: config.port, shutdown: config.shutdown },
  );
}
