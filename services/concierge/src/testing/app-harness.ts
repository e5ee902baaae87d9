import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Express } from 'express';
import request from 'supertest';
import type { OwnerRef, Principal } from '@partner/auth';
import { AssetSigner } from '@partner/assets';
import { UsageMeter } from '@partner/entitlements';
import { connectRedis, DEFAULT_MAX_BODY_BYTES, silentLogger } from '@partner/http';
import {
  type FakeOpenAI,
  internalCaller,
  keyPrincipalFor,
  startFakeOpenAI,
  testRedisUrl,
  useRedisPrefix,
  useTestDatabase,
} from '@partner/testing';
import { VisitorShares } from '../chat/visitor-share.js';
import { createApp } from '../app.js';
import type { ConciergeDeps } from '../deps.js';
import { MenuIndexBuilds } from '../grounding/menu-index-builds.js';
import { MenuIndexCache } from '../grounding/menu-index-cache.js';
import { OpenAIChatProvider } from '../providers/openai-provider.js';
import { SandboxChatProvider } from '../providers/sandbox-provider.js';
import { emptyRead, readEventStream, type StreamedEvent, type StreamRead } from './sse-client.js';

export type { StreamedEvent } from './sse-client.js';

export const PUBLIC_BASE_URL = 'http://gateway.test';
export const MODEL_NAME = 'fake-model';

export interface AppHarness {
  app: Express;
  deps: ConciergeDeps;
  /** Plays the gateway: the internal-token headers for a principal. */
  caller: ReturnType<typeof internalCaller>;
  /** The OpenAI-compatible server live keys talk to. */
  model: FakeOpenAI;
  close(): Promise<void>;
}

/**
 * The concierge as `server.ts` builds it, on this test file's own database and Redis prefix; live keys
 * reach a local server speaking OpenAI's protocol through the real openai client.
 */
/** As configured by default: 2 % of the allowance, at least 10 messages, per visitor. */
export const VISITOR_SHARE = { percent: 2, minimum: 10 };
export const MAX_OUTPUT_TOKENS = 600;

/** The live model behind the fake OpenAI server, as a service configures it (a 30 s idle deadline unless told). */
export const liveProviderOf = (model: FakeOpenAI, options: { idleTimeoutMs?: number } = {}) =>
  new OpenAIChatProvider({
    apiKey: 'sk-test-fake',
    baseURL: model.baseURL,
    model: MODEL_NAME,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
  });

export async function startAppHarness(): Promise<AppHarness> {
  const database = await useTestDatabase();
  const redisPrefix = useRedisPrefix();
  const redis = await connectRedis(testRedisUrl(), () => {});
  const model = await startFakeOpenAI();
  const caller = internalCaller('concierge');
  const logger = silentLogger();
  const indexBuilds = new MenuIndexBuilds({ database: { url: database.url }, threads: 1 });
  const deps: ConciergeDeps = {
    db: database.db,
    redis,
    redisPrefix: redisPrefix.prefix,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    logger,
    now: () => new Date(),
    internalPublicKey: caller.publicKey,
    usageMeter: new UsageMeter(database.db),
    visitorShares: new VisitorShares(redis, redisPrefix.prefix, VISITOR_SHARE),
    // A turn waits for its menu's new index, however slow a loaded machine builds it: the route tests
    // are about what a turn says of the menu as it is (menu-index-cache.test.ts tests the stale answers).
    menuIndexes: new MenuIndexCache(indexBuilds, { maxBytes: 64 * 1024 * 1024, logger, staleAfterMs: 60_000 }),
    liveProvider: liveProviderOf(model),
    sandboxProvider: new SandboxChatProvider(),
    heartbeatMs: 15_000,
    publicBaseUrl: PUBLIC_BASE_URL,
    signer: new AssetSigner({ secret: 'concierge-test-asset-signing-secret-0123456789', publicBaseUrl: PUBLIC_BASE_URL, ttlSeconds: 900 }),
  };
  return {
    app: createApp(deps),
    deps,
    caller,
    model,
    close: async () => {
      await Promise.all([redis.quit(), model.close(), indexBuilds.close()]);
      await Promise.all([database.drop(), redisPrefix.cleanup()]);
    },
  };
}

/**
 * For a test file: the harness, started before its tests and closed after them. The object is filled
 * in by `beforeAll`, so tests read it freely; the model answers its default script again before each test.
 */
export function useAppHarness(): AppHarness {
  const harness = {} as AppHarness;
  beforeAll(async () => {
    Object.assign(harness, await startAppHarness());
  });
  beforeEach(() => harness.model.reset());
  afterAll(() => harness.close());
  return harness;
}

/** A test-environment secret key of the owner, with every scope. */
export const testKey = (owner: OwnerRef) => keyPrincipalFor(owner, { environment: 'test' });
/** A publishable key of the owner, the embed's (no scopes; the gateway has checked its origin). */
export const publishableKey = (owner: OwnerRef, environment: 'live' | 'test' = 'test') =>
  keyPrincipalFor(owner, { keyType: 'publishable', environment, scopes: [] });

export const chatPath = (restaurantId: string, route: 'server' | 'embed' = 'server') =>
  route === 'server'
    ? `/v1/partner/restaurants/${restaurantId}/concierge/chat`
    : `/v1/partner/embed/restaurants/${restaurantId}/concierge/chat`;
export const bootstrapPath = (restaurantId: string) => `/v1/partner/embed/restaurants/${restaurantId}/concierge`;

export interface ChatOptions {
  route?: 'server' | 'embed';
  /** Another build of the app (other deps); the harness's by default. */
  app?: Express;
  headers?: Record<string, string>;
  /** Sees each event as it arrives; `hangUp` goes away like a client closing the tab (the turn then resolves with what was read). */
  onEvent?: (event: StreamedEvent, hangUp: () => void) => void;
}

/** One turn, forwarded as the gateway would, read as a streaming client reads it. */
export async function chat(
  h: AppHarness,
  principal: Principal,
  restaurantId: string,
  body: unknown,
  options: ChatOptions = {},
): Promise<StreamRead> {
  const read = emptyRead();
  let hungUp = false;
  const test = request(options.app ?? h.app)
    .post(chatPath(restaurantId, options.route))
    .set({ ...h.caller.headers(principal), ...options.headers });
  const hangUp = () => {
    hungUp = true;
    test.abort();
  };
  try {
    await test
      .send(body as object)
      .buffer(true)
      // superagent types a parser's first argument as its own Response; in node it is the IncomingMessage.
      .parse(readEventStream(read, (event) => options.onEvent?.(event, hangUp)) as never);
  } catch (err) {
    if (!hungUp) throw err;
  }
  return read;
}

export const kinds = (events: StreamedEvent[]) => events.map((e) => e.event);
export const textOf = (events: StreamedEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text as string)
    .join('');
export const eventOf = (events: StreamedEvent[], kind: string) => events.find((e) => e.event === kind)?.data;

export { expectError } from '@partner/testing';
