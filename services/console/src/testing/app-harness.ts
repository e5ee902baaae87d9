import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { generateInternalKeyPair } from '@partner/auth';
import { LocalDirectoryStorage } from '@partner/assets';
import { startS3TestServer, type S3TestServer } from '@partner/assets/testing';
import { connectRedis, DEFAULT_MAX_BODY_BYTES, newId, silentLogger } from '@partner/http';
import { downService, type Mailbox, startMailbox, testRedisUrl, useRedisPrefix, useTestDatabase } from '@partner/testing';
import type { TRole, TSession } from '@partner/contracts/console';
import request from 'supertest';
import { createApp } from '../app.js';
import { ensureAccount, insertMembership } from '../accounts/accounts.repository.js';
import type { OwnerRef } from '../accounts/actor.js';
import { Sessions, tokenDigest } from '../accounts/sessions.js';
import { insertSignInLink } from '../accounts/sessions.repository.js';
import { SignInLimits } from '../accounts/sign-in-limits.js';
import { SignInMailer } from '../accounts/sign-in-mailer.js';
import type { ConsoleDeps } from '../deps.js';
import { WebhooksServiceClient } from '../webhooks/webhooks.client.js';

export interface AppHarness {
  app: Express;
  deps: ConsoleDeps;
  /** The admin token's headers. */
  admin: Record<string, string>;
  /** The clock `deps.now` reads: real time until a test moves it. */
  clock: { advance(ms: number): void };
  /** The directory behind `deps.storage` (the local driver's). */
  storageDir: string;
  /** The S3-protocol server behind `deps.storage` when the harness was started with `storage: 's3'`. */
  s3: S3TestServer | undefined;
  /** The SMTP server console's sign-in e-mails go to. */
  mailbox: Mailbox;
  /**
   * A person signed in to the dashboard (their account made if new), a member of the owners given:
   * `headers` carry their session cookie and CSRF token. Signed in through the sign-in link route.
   */
  signIn(email: string, memberships?: Array<{ owner: OwnerRef; role?: TRole }>): Promise<SignedIn>;
  /** A second Redis connection subscribed to one of console's channels (`keys:invalidate`...). */
  subscribe(channel: string): Promise<ChannelListener>;
  close(): Promise<void>;
}

/**
 * Console as `server.ts` builds it, on this test file's own database, Redis prefix and asset directory
 * (or, with `storage: 's3'`, a bucket on an S3-protocol server of its own). The webhooks service is not
 * running: its client points at a port that cuts every connection (downService).
 */
export async function startAppHarness(options: { storage?: 'local' | 's3' } = {}): Promise<AppHarness> {
  const database = await useTestDatabase();
  const redisPrefix = useRedisPrefix();
  const redis = await connectRedis(testRedisUrl(), () => {});
  const storageDir = await mkdtemp(join(tmpdir(), 'console-assets-'));
  const s3 = options.storage === 's3' ? await startS3TestServer() : undefined;
  const adminToken = `adm_${randomBytes(24).toString('hex')}`;
  const webhooksDown = await downService();
  const mailbox = await startMailbox();
  const logger = silentLogger();
  let offsetMs = 0;
  const deps: ConsoleDeps = {
    db: database.db,
    redis,
    redisPrefix: redisPrefix.prefix,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    // Password routes hash at production cost (scrypt, 128 MiB each): on CI's two busy cores one such
    // request took longer than the default 8 s deadline and was answered 503. No test here times a deadline.
    requestDeadlineMs: 30_000,
    logger,
    adminToken,
    publicUrl: 'http://dashboard.test',
    now: () => new Date(Date.now() + offsetMs),
    storage: s3 ? s3.storage() : new LocalDirectoryStorage(storageDir),
    maxModelBytes: 5 * 1024 * 1024,
    webhooks: new WebhooksServiceClient({
      baseUrl: `http://127.0.0.1:${webhooksDown.port}`,
      internalPrivateKey: generateInternalKeyPair().privateKey,
    }),
    menuPageKeySecret: randomBytes(32).toString('hex'),
    menuPageKeyEnvironment: 'live',
    publicBaseUrl: 'https://menus.test/',
    trustProxyHops: 1,
    sessions: new Sessions(database.db, { publicUrl: 'http://dashboard.test', ttlMs: 3600_000 }),
    signInLimits: new SignInLimits(redis, redisPrefix.prefix),
    signInMailer: new SignInMailer(mailbox.url, 'Console tests <console@partner.test>', logger),
  };
  const app = createApp(deps);
  const listeners: ChannelListener[] = [];
  return {
    app,
    deps,
    admin: { Authorization: `Bearer ${adminToken}` },
    clock: { advance: (ms) => (offsetMs += ms) },
    storageDir,
    s3,
    mailbox,
    signIn: (email, memberships = []) => signInAs(app, deps, email, memberships),
    subscribe: async (channel) => {
      const listener = await listenTo(`${redisPrefix.prefix}${channel}`);
      listeners.push(listener);
      return listener;
    },
    close: async () => {
      await Promise.all(listeners.map((listener) => listener.close()));
      await redis.quit();
      await Promise.all([
        database.drop(),
        redisPrefix.cleanup(),
        rm(storageDir, { recursive: true, force: true }),
        s3?.close(),
        webhooksDown.close(),
        mailbox.close(),
      ]);
      deps.signInMailer?.close();
    },
  };
}

/**
 * For a test file: the harness, started before its tests and closed after them. The object is filled
 * in by `beforeAll`, so tests read it freely.
 */
export function useAppHarness(options: { storage?: 'local' | 's3' } = {}): AppHarness {
  const harness = {} as AppHarness;
  beforeAll(async () => {
    Object.assign(harness, await startAppHarness(options));
  });
  afterAll(() => harness.close());
  return harness;
}

export interface SignedIn {
  accountId: string;
  session: TSession;
  /** The session cookie and its CSRF token, for every request. */
  headers: Record<string, string>;
}

async function signInAs(
  app: Express,
  deps: ConsoleDeps,
  email: string,
  memberships: Array<{ owner: OwnerRef; role?: TRole }>,
): Promise<SignedIn> {
  const account = await ensureAccount(deps.db, { id: newId('acc'), email: email.toLowerCase(), name: null });
  for (const { owner, role = 'owner' } of memberships) await insertMembership(deps.db, account.id, owner, role);
  const token = randomBytes(32).toString('base64url');
  await insertSignInLink(deps.db, {
    tokenHash: tokenDigest(token),
    accountId: account.id,
    expiresAt: new Date(deps.now().getTime() + 60_000),
  });
  const res = await request(app).post('/console/sign-in/link/redeem').send({ token }).expect(200);
  const session = (res.body as { data: TSession }).data;
  const cookie = res.get('Set-Cookie')![0]!.split(';')[0]!;
  return { accountId: account.id, session, headers: { Cookie: cookie, 'X-CSRF-Token': session.csrfToken! } };
}

export interface ChannelListener {
  /**
   * Every message received since the last call, parsed. A marker published after the action and
   * awaited here proves that nothing else arrived before it (Redis keeps one channel's order).
   */
  drain(): Promise<unknown[]>;
  close(): Promise<void>;
}

async function listenTo(channel: string): Promise<ChannelListener> {
  const subscriber = await connectRedis(testRedisUrl(), () => {});
  const publisher = await connectRedis(testRedisUrl(), () => {});
  const received: string[] = [];
  await subscriber.subscribe(channel, (message) => received.push(message));
  return {
    drain: async () => {
      const marker = `marker-${randomBytes(4).toString('hex')}`;
      await publisher.publish(channel, marker);
      await expect.poll(() => received.includes(marker), { timeout: 2_000, interval: 10 }).toBe(true);
      const messages = received.splice(0, received.indexOf(marker) + 1).slice(0, -1);
      return messages.map((message) => JSON.parse(message) as unknown);
    },
    close: async () => {
      await Promise.all([subscriber.quit(), publisher.quit()]);
    },
  };
}

/** Every route the app serves, as `METHOD /path`, read from its Express router (mounted routers included). */
export function listRoutes(app: Express): { method: string; path: string }[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const walk = (stack: Layer[]): { method: string; path: string }[] =>
    stack.flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods).map((method) => ({ method: method.toUpperCase(), path: layer.route!.path }))
        : walk(layer.handle?.stack ?? []),
    );
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
}

export { expectError } from '@partner/testing';
