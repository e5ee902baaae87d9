import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { OwnerRef, Principal } from '@partner/auth';
import { AssetSigner, LocalDirectoryStorage } from '@partner/assets';
import { startS3TestServer, type S3TestServer } from '@partner/assets/testing';
import { UsageMeter } from '@partner/entitlements';
import {
  accessInvalidations,
  connectRedis,
  DEFAULT_MAX_BODY_BYTES,
  menuInvalidations,
  silentLogger,
  subscribeToInvalidations,
} from '@partner/http';
import { HmacKey, ViewTokens } from '@partner/signing';
import { expectError, internalCaller, keyPrincipalFor, testRedisUrl, useRedisPrefix, useTestDatabase } from '@partner/testing';
import { createApp } from '../app.js';
import { VIEW_TOKEN_LIFETIME_MS, type CatalogDeps } from '../deps.js';
import { ItemAccessCache } from '../items/item-access-cache.js';
import { PagePrefetch } from '../items/page-prefetch.js';
import { CoalescedReads } from '../menu/coalesced-reads.js';
import { buildMenu } from '../menu/menu-build.js';
import { MenuCache } from '../menu/menu-cache.js';
import { MenuPageCache } from '../menu-page/menu-page-cache.js';

export const PUBLIC_BASE_URL = 'http://gateway.test';
export const ASSET_URL_TTL_SECONDS = 900;
export const MENU_PAGE_KEY_SECRET = 'catalog-test-menu-page-key-secret-0123456789';

/** The catalog's `now`: the real time unless a test pins it or moves it; `reset` after each test. */
export class TestClock {
  private pinned: number | null = null;
  private offsetMs = 0;

  readonly now = (): Date => new Date((this.pinned ?? Date.now()) + this.offsetMs);

  pin(at: Date): void {
    this.pinned = at.getTime();
    this.offsetMs = 0;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.pinned = null;
    this.offsetMs = 0;
  }
}

export interface AppHarness {
  app: Express;
  deps: CatalogDeps;
  /** Plays the gateway: the internal-token headers for a principal. */
  caller: ReturnType<typeof internalCaller>;
  clock: TestClock;
  /** The directory behind `deps.storage` (the local driver's). */
  assetDir: string;
  /** The S3-protocol server behind `deps.storage` when the harness was started with `storage: 's3'`. */
  s3: S3TestServer | undefined;
  /** A GET as the gateway forwards it for `principal`. */
  get(path: string, principal: Principal): request.Test;
  post(path: string, principal: Principal): request.Test;
  close(): Promise<void>;
}

/**
 * The catalog as `server.ts` builds it, on this test file's own database, Redis prefix (console's
 * item invalidations arrive over it) and asset directory (or, with `storage: 's3'`, a bucket on an
 * S3-protocol server of its own), with a clock the test controls.
 */
export async function startAppHarness(options: { storage?: 'local' | 's3' } = {}): Promise<AppHarness> {
  const database = await useTestDatabase();
  const redisPrefix = useRedisPrefix();
  const redis = await connectRedis(testRedisUrl(), () => {});
  const subscriber = await connectRedis(testRedisUrl(), () => {});
  const assetDir = await mkdtemp(join(tmpdir(), 'catalog-assets-'));
  const s3 = options.storage === 's3' ? await startS3TestServer() : undefined;
  const caller = internalCaller('catalog');
  const clock = new TestClock();
  const logger = silentLogger();
  const itemAccess = new ItemAccessCache(database.db, { ttlMs: 60_000 });
  const menuPages = new MenuPageCache({ ttlMs: 60_000 });
  await subscribeToInvalidations(subscriber, { channel: accessInvalidations, prefix: redisPrefix.prefix }, itemAccess, logger);
  await subscribeToInvalidations(subscriber, { channel: menuInvalidations, prefix: redisPrefix.prefix }, menuPages, logger);
  const deps: CatalogDeps = {
    db: database.db,
    redis,
    logger,
    redisPrefix: redisPrefix.prefix,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    now: clock.now,
    internalPublicKey: caller.publicKey,
    cursorKey: new HmacKey('catalog-test-cursor-secret-0123456789abcdef'),
    viewTokens: new ViewTokens(new HmacKey('catalog-test-view-token-secret-0123456789'), VIEW_TOKEN_LIFETIME_MS),
    usageMeter: new UsageMeter(database.db),
    itemAccess,
    pagePrefetch: new PagePrefetch(),
    menuPages,
    menus: new MenuCache({ maxBytes: 16 * 1024 * 1024, build: (restaurantId, out) => buildMenu(database.db, restaurantId, out) }),
    menuAccess: new CoalescedReads(),
    menuMaxItems: 25_000,
    signer: new AssetSigner({
      secret: 'catalog-test-asset-signing-secret-0123456789',
      publicBaseUrl: PUBLIC_BASE_URL,
      ttlSeconds: ASSET_URL_TTL_SECONDS,
    }),
    storage: s3 ? s3.storage() : new LocalDirectoryStorage(assetDir),
    publicBaseUrl: PUBLIC_BASE_URL,
    menuPageKeySecret: MENU_PAGE_KEY_SECRET,
    menuPageKeyEnvironment: 'live',
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    caller,
    clock,
    assetDir,
    s3,
    get: (path, principal) => request(app).get(path).set(caller.headers(principal)),
    post: (path, principal) => request(app).post(path).set(caller.headers(principal)),
    close: async () => {
      await Promise.all([redis.quit(), subscriber.quit()]);
      await Promise.all([database.drop(), redisPrefix.cleanup(), rm(assetDir, { recursive: true, force: true }), s3?.close()]);
    },
  };
}

/**
 * For a test file: the harness, started before its tests and closed after them. The object is filled
 * in by `beforeAll`, so tests read it freely; the clock goes back to real time after every test.
 */
export function useAppHarness(options: { storage?: 'local' | 's3' } = {}): AppHarness {
  const harness = {} as AppHarness;
  beforeAll(async () => {
    Object.assign(harness, await startAppHarness(options));
  });
  afterEach(() => harness.clock.reset());
  afterAll(() => harness.close());
  return harness;
}

/** What the gateway forwards for keyless routes (asset files, the public menu page). */
export const publicPrincipal: Principal = { kind: 'public' };

/**
 * The shared guard of every route: without a token, with a malformed one, one signed by another key and
 * one the trusted key signed for another service, the route answers `401 unauthorized`; the very same
 * request with the gateway's token gets past the guard. A route called with a key refuses a keyless
 * principal (`401 invalid_api_key`).
 */
export async function expectGuarded(h: AppHarness, method: 'get' | 'post', path: string, principal: Principal): Promise<void> {
  const anotherGateway = internalCaller('catalog');
  const forWebhooks = internalCaller('webhooks');
  const trustingWebhooksToken = createApp({ ...h.deps, internalPublicKey: forWebhooks.publicKey });
  const refused: [Express, Record<string, string>][] = [
    [h.app, {}],
    [h.app, { 'x-internal-token': 'not-a-token' }],
    [h.app, anotherGateway.headers(principal)],
    [trustingWebhooksToken, forWebhooks.headers(principal)],
  ];
  for (const [app, headers] of refused) expectError(await request(app)[method](path).set(headers), 401, 'unauthorized');
  // The route itself answers the principal (not the guard, and not with a fault).
  const reached = (await h[method](path, principal)).status;
  expect(reached).not.toBe(401);
  expect(reached).toBeLessThan(500);
  if (principal.kind === 'key') expectError(await h[method](path, publicPrincipal), 401, 'invalid_api_key');
}

/** A test-environment secret key of the owner, with every scope (never metered). */
export const testKey = (owner: OwnerRef): Principal => keyPrincipalFor(owner, { environment: 'test' });

/** A publishable key of the owner, the viewer embed's (no scopes: the gateway has checked its origin). */
export const publishableKey = (owner: OwnerRef, overrides: { environment?: 'live' | 'test'; keyId?: string } = {}): Principal =>
  keyPrincipalFor(owner, { keyType: 'publishable', scopes: [], ...overrides });

export { expectError };
