import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateInternalKeyPair } from '@partner/auth';
import { type Db, lockForItemWrite, writeTimestamp } from '@partner/db';
import { freePort, type Mailbox, ServiceBalancer, startMailbox, useTestDatabase } from '@partner/testing';
import { connectRedis, type RedisClient, type StartedService } from '@partner/http';
import { SealingKeys } from '@partner/signing';
import { startS3TestServer } from '@partner/assets/testing';
import { loadCatalogConfig, startCatalog } from '@partner/catalog';
import { loadConciergeConfig, startConcierge } from '@partner/concierge';
import { loadConsoleConfig, startConsole } from '@partner/console';
import { ConsoleClient } from '@partner/console/client';
import { loadDashboardConfig, startDashboard } from '@partner/dashboard';
import { loadGatewayConfig, startGateway } from '@partner/gateway';
import { loadWebhooksConfig, startWebhooks } from '@partner/webhooks';
import { watchAnswers } from './openapi-conformance.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connection pooler in front of Postgres (PgBouncer): the URL of a database through it, and letting go of one. */
export interface DatabaseProxy {
  urlFor(databaseUrl: string): string;
  release(databaseUrl: string): Promise<void>;
}

export interface Stack {
  /** Base URL of the first gateway replica. */
  gatewayUrl: string;
  /** Each service's (first replica's) metrics port, when METRICS_PORT was given. */
  metricsPorts: Record<'gateway' | 'catalog' | 'webhooks' | 'concierge' | 'console', number | null>;
  gatewayUrls: string[];
  consoleUrl: string;
  serviceUrls: { catalog: string; webhooks: string; concierge: string };
  console: ConsoleClient;
  adminToken: string;
  /** The secrets the services were started with, for tests that forge or check signatures. */
  secrets: { asset: string; cursor: string };
  /** The webhooks service's sealing keys, for a dispatcher of a test's own. */
  sealing: SealingKeys;
  /** The directory the local asset storage driver writes to. */
  assetDir: string;
  db: Db;
  redis: RedisClient;
  redisPrefix: string;
  /** The dashboard's origin and the mailbox console's e-mails go to, when started with `dashboard`. */
  dashboard: { url: string; mailbox: Mailbox } | null;
  /** Stops the catalog and starts a new one on the same port: nothing it held in memory survives. */
  restartCatalog(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole platform in this process, each service on its own port, wired exactly as `main.ts` wires
 * it (configuration parsed from an environment), on a fresh database and a Redis key prefix of its own.
 */
export async function startStack(
  options: {
    gateways?: number;
    gatewayEnv?: Record<string, string>;
    webhooksEnv?: Record<string, string>;
    conciergeEnv?: Record<string, string>;
    /** Added to every service's environment. */
    env?: Record<string, string>;
    /**
     * Replicas of catalog, webhooks and concierge (1 by default). With more, each service's replicas
     * sit behind a ServiceBalancer (a Kubernetes Service on one machine) that the gateways call.
     */
    replicas?: number;
    /** Where model files go: a local directory (the default), or a bucket on an s3rver this stack starts. */
    storage?: 'local' | 's3';
    /** Run the (single) gateway on a port known up front, with PUBLIC_BASE_URL pointing at it. */
    realPublicUrl?: boolean;
    /** The gateways' clock (key expiry, rate-limit windows); by default the real time and Redis's minutes. */
    gatewayClock?: () => Date;
    /**
     * A pooler the services reach the stack's database through (by default they reach it directly;
     * migrations and the test's own queries always do). It lets go of the database before it is dropped.
     */
    databaseProxy?: DatabaseProxy;
    /**
     * The dashboard too, on a port known up front (console's CONSOLE_PUBLIC_URL names it), with console
     * mailing its sign-in links to a mailbox of the stack's.
     */
    dashboard?: boolean;
  } = {},
): Promise<Stack> {
  const database = await useTestDatabase();
  const redisPrefix = `t${randomBytes(4).toString('hex')}:`;
  const jwt = generateInternalKeyPair();
  const adminToken = `adm_${randomBytes(18).toString('hex')}`;
  const assetDir = await mkdtemp(join(tmpdir(), 'ptr-assets-'));
  const env = {
    DATABASE_URL: options.databaseProxy?.urlFor(database.url) ?? database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    LOG_LEVEL: 'silent',
    INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
    INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
    CONSOLE_ADMIN_TOKEN: adminToken,
    CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
    ASSET_SIGNING_SECRET: randomBytes(32).toString('hex'),
    MENU_PAGE_KEY_SECRET: randomBytes(32).toString('hex'),
    VIEW_TOKEN_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('e2e'),
    ASSET_STORAGE_DIR: assetDir,
    PUBLIC_BASE_URL: 'http://gateway.test',
    CATALOG_PORT: '0',
    WEBHOOKS_PORT: '0',
    CONCIERGE_PORT: '0',
    CONSOLE_PORT: '0',
    GATEWAY_PORT: '0',
    // Every test of a file comes from 127.0.0.1: the per-address limit is the gateway's own tests' business.
    CLIENT_PER_MIN: '1000000',
    // Nothing routes by readiness here unless a test says so: a stopping service need not wait for it.
    SHUTDOWN_DRAIN_SECONDS: '0',
  };
  // The AWS SDK reads its credentials from the process environment (its standard chain), not from the
  // configuration: the in-process services share this process's.
  const s3 = options.storage === 's3' ? await startS3TestServer() : null;
  if (s3) {
    Object.assign(env, {
      ASSET_STORAGE_DRIVER: 's3',
      ASSET_S3_BUCKET: s3.bucket,
      ASSET_S3_REGION: 'us-east-1',
      ASSET_S3_ENDPOINT: s3.endpoint,
      ASSET_S3_FORCE_PATH_STYLE: 'true',
    });
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  }
  Object.assign(env, options.env);
  if (options.realPublicUrl) {
    const port = await freePort();
    env.GATEWAY_PORT = String(port);
    env.PUBLIC_BASE_URL = `http://127.0.0.1:${port}`;
  }
  const started: StartedService[] = [];
  const track = <T extends StartedService>(service: T) => (started.push(service), service);
  const url = (service: StartedService) => `http://127.0.0.1:${service.port}`;

  // Tests drive the dispatcher themselves unless they ask for the running loop. Its LISTEN goes straight
  // to Postgres, past any pooler, as docs/deployment.md says.
  const webhooksEnv = {
    WEBHOOK_DISPATCHER_ENABLED: 'false',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
    WEBHOOK_LISTEN_URL: database.url,
    ...options.webhooksEnv,
  };
  const balancers: ServiceBalancer[] = [];
  /** One service's replicas, and the URL that reaches them: the replica's own, or their balancer's. */
  const replicated = async (start: () => Promise<StartedService>) => {
    const replicas: StartedService[] = [];
    for (let i = 0; i < (options.replicas ?? 1); i++) replicas.push(track(await start()));
    if (replicas.length === 1) return { first: replicas[0]!, url: url(replicas[0]!) };
    const balancer = await ServiceBalancer.start();
    balancers.push(balancer);
    for (const replica of replicas) await balancer.add(url(replica));
    await balancer.whenAllReady();
    return { first: replicas[0]!, url: balancer.url };
  };
  const webhooks = await replicated(() => startWebhooks(loadWebhooksConfig({ ...env, ...webhooksEnv })));
  const mailbox = options.dashboard ? await startMailbox() : null;
  const dashboardPort = options.dashboard ? await freePort() : null;
  const dashboardEnv = mailbox ? { SMTP_URL: mailbox.url, CONSOLE_PUBLIC_URL: `http://127.0.0.1:${dashboardPort}` } : {};
  const consoleService = track(await startConsole(loadConsoleConfig({ ...env, ...dashboardEnv, WEBHOOKS_URL: webhooks.url })));
  const dashboard =
    dashboardPort === null
      ? null
      : track(
          await startDashboard(loadDashboardConfig({ ...env, DASHBOARD_PORT: String(dashboardPort), CONSOLE_URL: url(consoleService) })),
        );
  const catalogs = await replicated(() => startCatalog(loadCatalogConfig(env)));
  let catalog = catalogs.first;
  const concierge = await replicated(() => startConcierge(loadConciergeConfig({ ...env, ...options.conciergeEnv })));
  const serviceUrls = { catalog: catalogs.url, webhooks: webhooks.url, concierge: concierge.url };
  const gateways: StartedService[] = [];
  for (let i = 0; i < (options.gateways ?? 1); i++) {
    const gatewayEnv = {
      ...env,
      CATALOG_URL: serviceUrls.catalog,
      WEBHOOKS_URL: serviceUrls.webhooks,
      CONCIERGE_URL: serviceUrls.concierge,
      ...options.gatewayEnv,
    };
    gateways.push(track(await startGateway(loadGatewayConfig(gatewayEnv), { clock: options.gatewayClock })));
  }
  // Every answer a gateway gives is checked against the OpenAPI document when the stack stops.
  const conformance = watchAnswers(gateways.map((gateway) => gateway.port));
  const redis = await connectRedis(REDIS_URL, () => {});
  const consoleUrl = url(consoleService);
  return {
    gatewayUrl: url(gateways[0]!),
    metricsPorts: {
      gateway: gateways[0]!.metricsPort,
      catalog: catalog.metricsPort,
      webhooks: webhooks.first.metricsPort,
      concierge: concierge.first.metricsPort,
      console: consoleService.metricsPort,
    },
    gatewayUrls: gateways.map(url),
    consoleUrl,
    serviceUrls,
    console: new ConsoleClient({ baseUrl: consoleUrl, adminToken }),
    adminToken,
    secrets: { asset: env.ASSET_SIGNING_SECRET, cursor: env.CURSOR_SIGNING_SECRET },
    sealing: SealingKeys.parse(env.WEBHOOK_SEALING_KEYS),
    assetDir,
    db: database.db,
    redis,
    redisPrefix,
    dashboard: dashboard && mailbox ? { url: `http://127.0.0.1:${dashboard.port}`, mailbox } : null,
    restartCatalog: async () => {
      if ((options.replicas ?? 1) > 1) throw new Error('restartCatalog restarts a single catalog');
      await catalog.stop();
      started.splice(started.indexOf(catalog), 1);
      catalog = track(await startCatalog(loadCatalogConfig({ ...env, CATALOG_PORT: String(catalog.port) })));
    },
    stop: async () => {
      try {
        await Promise.all(started.map((service) => service.stop()));
        await Promise.all(balancers.map((balancer) => balancer.close()));
        await s3?.close();
        await mailbox?.close();
        for await (const keys of redis.scanIterator({ MATCH: `${redisPrefix}*`, COUNT: 1000 })) {
          if (keys.length) await redis.del(keys);
        }
        await redis.quit();
        await options.databaseProxy?.release(database.url);
        await database.drop();
        await rm(assetDir, { recursive: true, force: true });
      } finally {
        conformance.verify();
      }
    },
  };
}

let counter = 0;
const unique = (base: string) => `${base}-${process.pid}-${++counter}-${randomBytes(2).toString('hex')}`;

/** A restaurant created through console, with a key of the given kind. */
export async function restaurantWithKey(
  stack: Stack,
  key: {
    type?: 'secret' | 'publishable';
    environment?: 'live' | 'test';
    scopes?: string[];
    rateLimitPerMin?: number;
    allowedOrigins?: string[];
    expiresAt?: string;
  } = {},
) {
  const restaurant = await stack.console.createRestaurant({ name: 'Test Kitchen', slug: unique('kitchen'), currency: 'EUR' });
  const created = await stack.console.createKey({
    restaurantId: restaurant.id,
    type: key.type ?? 'secret',
    environment: key.environment ?? 'live',
    name: 'test key',
    scopes: key.scopes,
    rateLimitPerMin: key.rateLimitPerMin,
    allowedOrigins: key.allowedOrigins,
    expiresAt: key.expiresAt,
  });
  return { restaurant, key: created, auth: { Authorization: `Bearer ${created.value}` } };
}

export async function integratorWithKey(stack: Stack, key: { scopes?: string[] } = {}) {
  const org = await stack.console.createIntegrator({ name: 'POS Co', slug: unique('pos') });
  const created = await stack.console.createKey({
    integratorOrgId: org.id,
    type: 'secret',
    environment: 'live',
    name: 'integrator key',
    scopes: key.scopes,
  });
  return { org, key: created, auth: { Authorization: `Bearer ${created.value}` } };
}

export async function grantAccess(stack: Stack, integratorOrgId: string, restaurantId: string) {
  const link = await stack.console.createConnectLink(integratorOrgId);
  return stack.console.approveConnectLink(link.token, restaurantId);
}

/**
 * An item write as console makes it (the restaurant's sync lock held, the row stamped from the database
 * clock), left uncommitted until `commit()`: a slow writer, for tests of what readers see meanwhile.
 */
export async function holdItemWrite(stack: Stack, restaurantId: string, itemId: string, priceCents: number) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let written: () => void = () => {};
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const transaction = stack.db.transaction().execute(async (tx) => {
    await lockForItemWrite(tx, restaurantId);
    await tx.updateTable('items').set({ price_cents: priceCents, updated_at: writeTimestamp() }).where('id', '=', itemId).execute();
    written();
    await released;
  });
  await wrote;
  return {
    commit: async () => {
      release();
      await transaction;
    },
  };
}

/** Sample model files: a true-size plate as GLB and USDZ, and a PNG thumbnail. */
export async function sampleModelFiles() {
  const { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } = await import('@partner/sample-dish');
  return { glb: createSampleDishGlb(), usdz: createSampleDishUsdz(), thumbnail: createSampleThumbnailPng(64) };
}
