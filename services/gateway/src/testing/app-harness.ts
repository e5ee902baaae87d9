import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import { DEFAULT_SECRET_SCOPES, generateApiKey, generateInternalKeyPair, hashApiKey, keyPrefix, type Principal } from '@partner/auth';
import type { TEnvironment, TKeyType, TScope } from '@partner/contracts';
import type { ApiKeyRow, Db } from '@partner/db';
import {
  connectRedis,
  createInternalServiceApp,
  DEFAULT_MAX_BODY_BYTES,
  keyInvalidations,
  type KeyInvalidation,
  listen,
  newId,
  type RunningServer,
  silentLogger,
} from '@partner/http';
import {
  expectError as expectEnvelope,
  insertApiKey,
  insertRestaurant,
  type ResponseLike,
  testRedisUrl,
  updateRestaurant,
  useRedisPrefix,
  useTestDatabase,
} from '@partner/testing';
import { createApp } from '../app.js';
import { loadGatewayConfig } from '../config.js';
import { createDeps } from '../deps.js';
import type { ServiceName } from '../routing/route-table.js';

const SERVICES: readonly ServiceName[] = ['catalog', 'webhooks', 'concierge'];

/** What one upstream service saw of a request the gateway proxied. */
export interface UpstreamRequest {
  service: ServiceName;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** As the service frame verified it from the internal token; unset when the frame refused the request. */
  principal?: Principal;
  /** As the service frame took it from the proxied request; unset when the frame refused the request. */
  requestId?: string;
}

export interface Upstream {
  /** Every request that arrived since the last call, in order; the list starts empty again. */
  take(): UpstreamRequest[];
}

export interface Owner {
  kind: 'restaurant' | 'integrator';
  id: string;
  name: string;
  slug: string;
}

export interface KeyOptions {
  type?: TKeyType;
  environment?: TEnvironment;
  scopes?: TScope[];
  allowedOrigins?: string[];
  rateLimitPerMin?: number;
  expiresAt?: Date | null;
  revokedAt?: Date | null;
  /**
   * The plaintext whose hash is stored, when a test needs a row behind a string the gateway must
   * refuse on its shape alone (a malformed key, a bad checksum). A fresh key of `type` by default.
   */
  value?: string;
}

export interface IssuedKey {
  value: string;
  row: ApiKeyRow;
  owner: Owner;
  /** `Authorization: Bearer <value>`. */
  auth: Record<string, string>;
}

/**
 * One upstream per service, each a real internal service built with the frame every service uses
 * (internal-token guard for its own audience, request ids, JSON bodies, idempotency): whatever route
 * it is asked for, it answers what it verified. Requests are recorded as they arrive, before the
 * frame, so one the frame refuses (a body too large for it) still counts as having reached it.
 */
async function startUpstreams(publicKey: string, db: Db) {
  const received: UpstreamRequest[] = [];
  const arrivals = new WeakMap<IncomingMessage, UpstreamRequest>();
  const servers: RunningServer[] = [];
  const origins = {} as Record<ServiceName, string>;
  for (const service of SERVICES) {
    const app = createInternalServiceApp({
      service,
      logger: silentLogger(),
      db,
      internalPublicKey: publicKey,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      register: (router) => {
        router.use((req, res) => {
          const seen = arrivals.get(req)!;
          seen.principal = req.principal;
          seen.requestId = req.requestId;
          res.json({ data: { service, principal: seen.principal, requestId: seen.requestId } });
        });
      },
    });
    const server = await listen(
      (req, res) => {
        const seen: UpstreamRequest = { service, method: req.method!, url: req.url!, headers: req.headers };
        received.push(seen);
        arrivals.set(req, seen);
        app(req, res);
      },
      0,
      '127.0.0.1',
    );
    servers.push(server);
    origins[service] = `http://127.0.0.1:${server.port}`;
  }
  return {
    origins,
    upstream: { take: () => received.splice(0) } satisfies Upstream,
    close: () => Promise.all(servers.map((server) => server.close())),
  };
}

/**
 * The gateway as `server.ts` builds it (`loadGatewayConfig` and `createDeps`, so the key cache's
 * pub/sub subscription and the rate limiter's Redis client are the real ones), on this test file's own
 * database and Redis prefix, in front of upstream services of `startUpstreams`.
 */
export async function startGatewayHarness(env: Record<string, string> = {}) {
  const database = await useTestDatabase();
  const redisKeys = useRedisPrefix();
  const redis = await connectRedis(testRedisUrl(), () => {});
  const pair = generateInternalKeyPair();
  const upstreams = await startUpstreams(pair.publicKey, database.db);
  const config = loadGatewayConfig({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: redisKeys.prefix,
    LOG_LEVEL: 'silent',
    INTERNAL_JWT_PRIVATE_KEY: pair.privateKey,
    CATALOG_URL: upstreams.origins.catalog,
    WEBHOOKS_URL: upstreams.origins.webhooks,
    CONCIERGE_URL: upstreams.origins.concierge,
    ...env,
  });
  // The real time unless a test pins it: rate-limit windows then follow this clock, not Redis's.
  const clock = { pinned: null as number | null };
  const { deps, closeDeps } = await createDeps(config, { clock: () => new Date(clock.pinned ?? Date.now()) });
  const db = database.db;

  const restaurant = async (options: { suspended?: boolean } = {}): Promise<Owner> => {
    const id = newId('rst');
    const row = await insertRestaurant(db, {
      id,
      name: `Restaurant ${id}`,
      slug: id.toLowerCase(),
      currency: 'EUR',
      suspended: options.suspended ?? false,
    });
    return { kind: 'restaurant', id: row.id, name: row.name, slug: row.slug };
  };

  // No shared fixture for integrators: only console writes them, and it is not running here.
  const integrator = async (options: { suspended?: boolean } = {}): Promise<Owner> => {
    const id = newId('org');
    const row = await db
      .insertInto('integrator_orgs')
      .values({ id, name: `Integrator ${id}`, slug: id.toLowerCase(), suspended: options.suspended ?? false })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { kind: 'integrator', id: row.id, name: row.name, slug: row.slug };
  };

  const issueKey = async (owner: Owner, options: KeyOptions = {}): Promise<IssuedKey> => {
    const type = options.type ?? 'secret';
    const environment = options.environment ?? 'live';
    const value = options.value ?? generateApiKey(type, environment).value;
    const row = await insertApiKey(db, {
      id: newId('key'),
      key_hash: hashApiKey(value),
      prefix: keyPrefix(type, environment),
      last4: value.slice(-4),
      type,
      environment,
      name: `${type} ${environment} key`,
      scopes: options.scopes ?? (type === 'secret' ? [...DEFAULT_SECRET_SCOPES] : []),
      rate_limit_per_min: options.rateLimitPerMin ?? 1_000,
      allowed_origins: options.allowedOrigins ?? [],
      restaurant_id: owner.kind === 'restaurant' ? owner.id : null,
      integrator_org_id: owner.kind === 'integrator' ? owner.id : null,
      expires_at: options.expiresAt ?? null,
      revoked_at: options.revokedAt ?? null,
    });
    return { value, row, owner, auth: { Authorization: `Bearer ${value}` } };
  };

  /** Tells the gateway's key cache what console would after a change (`{ keyId }` or `{ ownerId }`). */
  const invalidateKeys = (message: KeyInvalidation) => keyInvalidations.publish(redis, redisKeys.prefix, message);

  /** Suspends or lifts an owner as console does: the row, then the invalidation. */
  const setSuspended = async (owner: Owner, suspended: boolean) => {
    if (owner.kind === 'restaurant') await updateRestaurant(db, owner.id, { suspended });
    else await db.updateTable('integrator_orgs').set({ suspended }).where('id', '=', owner.id).execute();
    await invalidateKeys({ ownerId: owner.id });
  };

  /** Pins the clock `secondsIntoMinute` into the current minute, so a test counts within one window. */
  const pinClockInMinute = (secondsIntoMinute: number) => {
    clock.pinned = Math.floor(Date.now() / 60_000) * 60_000 + secondsIntoMinute * 1000;
  };
  const unpinClock = () => {
    clock.pinned = null;
  };

  return {
    app: createApp(deps),
    deps,
    config,
    db,
    upstream: upstreams.upstream,
    restaurant,
    integrator,
    issueKey,
    invalidateKeys,
    setSuspended,
    pinClockInMinute,
    unpinClock,
    close: async () => {
      await closeDeps();
      await upstreams.close();
      await redis.quit();
      await Promise.all([database.drop(), redisKeys.cleanup()]);
    },
  };
}

export type GatewayHarness = Awaited<ReturnType<typeof startGatewayHarness>>;

/** What the gateway mints (decisions: `req_` + 32 hex). */
export const GATEWAY_REQUEST_ID = /^req_[0-9a-f]{32}$/;

/** The shared envelope check, and a request id the gateway minted. */
export function expectError(res: ResponseLike, status: number, code: string): void {
  expectEnvelope(res, status, code);
  expect(res.headers['x-request-id']).toMatch(GATEWAY_REQUEST_ID);
}

/** The claims of an internal token, read without verifying (the upstream verified it). */
export function tokenClaims(token: string | string[] | undefined): Record<string, unknown> {
  if (typeof token !== 'string') throw new Error('no internal token');
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
