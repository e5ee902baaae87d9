import { InternalTokenSigner } from '@partner/auth';
import {
  closeRedis,
  connectRedis,
  createLogs,
  ServiceMetrics,
  describeFault,
  FaultLog,
  keyInvalidations,
  KeyUseRecorder,
  onRedisError,
  postgresCheck,
  type ReadinessCheck,
  redisCheck,
  subscribeToInvalidations,
  upstreamCheck,
} from '@partner/http';
import { createDb } from '@partner/db';
import { KeyCache } from './auth/key-cache.js';
import type { GatewayDeps } from './app.js';
import type { GatewayConfig } from './config.js';
import { embedScriptsDir } from './embed-scripts.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { ServiceProxy } from './proxy/proxy.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { TestTrafficCaps } from './rate-limit/test-traffic.js';

/** A service answers 503 at its own REQUEST_DEADLINE_MS; the gateway waits this much longer before it does. */
const UPSTREAM_GRACE_MS = 1_000;

/**
 * `clock` is for tests: it decides key expiry and the rate limit's windows, which otherwise follow
 * Redis's own clock (every replica agrees on the minute).
 */
export async function createDeps(
  config: GatewayConfig,
  options: { clock?: () => Date } = {},
): Promise<{ deps: GatewayDeps; checks: ReadinessCheck[]; closeDeps: () => Promise<void> }> {
  const { clock } = options;
  const now = clock ?? (() => new Date());
  const { logger, accessLog } = createLogs('gateway', config);
  // Background faults (Redis reconnecting, idle connections lost) are logged once per burst.
  const faults = new FaultLog(logger);
  const db = createDb({
    url: config.databaseUrl,
    max: config.databasePoolMax,
    applicationName: 'gateway',
    deadlines: config.dbDeadlines,
    onIdleError: (err) => faults.note('postgres:idle-connection-lost', { fault: describeFault(err) }, 'idle database connection lost'),
  });
  // One command per request: the rate limiter bounds its own waits.
  const redis = await connectRedis(config.redisUrl, onRedisError(faults, 'redis'), { callerBoundsWaits: true });
  const subscriber = await connectRedis(config.redisUrl, onRedisError(faults, 'redis subscriber'), {
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  const keyCache = new KeyCache({ db, ttlMs: config.keyCacheTtlMs, maxEntries: config.keyCacheMaxKeys });
  await subscribeToInvalidations(subscriber, { channel: keyInvalidations, prefix: config.redisPrefix }, keyCache, logger);
  const metrics = config.metrics ? new ServiceMetrics('gateway', { db }) : undefined;
  const gatewayMetrics = metrics && new GatewayMetrics(metrics);
  const proxy = new ServiceProxy(
    config.services,
    config.maxBodyBytes,
    config.requestDeadlineMs + UPSTREAM_GRACE_MS,
    gatewayMetrics?.observeUpstream,
  );
  const deps: GatewayDeps = {
    logger,
    faults,
    requestDeadlineMs: config.requestDeadlineMs + UPSTREAM_GRACE_MS,
    keyCache,
    rateLimiter: new RateLimiter(redis, config.redisPrefix, {
      clock: clock && (() => clock().getTime()),
      replicas: config.replicas,
      logger,
    }),
    testTraffic: new TestTrafficCaps(db, now, logger),
    keyUse: new KeyUseRecorder(redis, config.redisPrefix),
    proxy,
    tokens: new InternalTokenSigner(config.jwtPrivateKey),
    docsUrl: config.docsUrl,
    maxBodyBytes: config.maxBodyBytes,
    trustProxyHops: config.trustProxyHops,
    clientLimitPerMin: config.clientLimitPerMin,
    embedLimits: config.embedLimits,
    embedDir: embedScriptsDir(),
    publicBaseUrl: config.publicBaseUrl,
    now,
    metrics,
    gatewayMetrics,
    accessLog,
  };
  return {
    deps,
    // Reported, never required but Postgres: the gateway serves through a Redis outage (each replica
    // counts its share of the limits), and an upstream that is down fails its own routes only; every
    // replica turning unready for either would take the whole API down with it.
    checks: [
      postgresCheck(db),
      { ...redisCheck(redis), required: false },
      ...Object.entries(config.services).map(([name, origin]) => ({ ...upstreamCheck(name, origin), required: false })),
    ],
    closeDeps: async () => {
      await proxy.close();
      await Promise.all([closeRedis(subscriber), closeRedis(redis), db.destroy()]);
      faults.flush();
      accessLog.flush();
      logger.flush();
    },
  };
}
