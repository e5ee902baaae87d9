import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Principal } from '@partner/auth';
import { connectRedis, DEFAULT_MAX_BODY_BYTES, silentLogger } from '@partner/http';
import { HmacKey } from '@partner/signing';
import { internalCaller, testRedisUrl, useRedisPrefix, useTestDatabase } from '@partner/testing';
import { createApp } from '../app.js';
import type { WebhooksDeps } from '../deps.js';
import { WebhookSender } from '../dispatcher/sender.js';
import { TEST_SEALING_KEYS } from './webhook-fixtures.js';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** A small cap, so a test can reach it. */
export const MAX_ENDPOINTS_PER_OWNER = 5;

/**
 * The webhooks service at its own door, built as server.ts builds it but on a database of this test
 * file's own and a Redis prefix of its own, and called as the gateway calls it.
 */
export async function startWebhooksHarness(overrides: Partial<Pick<WebhooksDeps, 'targets' | 'now'>> = {}) {
  const database = await useTestDatabase();
  const redisKeys = useRedisPrefix();
  const redis = await connectRedis(testRedisUrl(), () => {});
  const caller = internalCaller('webhooks');
  const targets = overrides.targets ?? { allowPrivate: false };
  const now = overrides.now ?? (() => new Date());
  const sender = new WebhookSender(targets, now);
  const deps: WebhooksDeps = {
    db: database.db,
    redis,
    logger: silentLogger(),
    redisPrefix: redisKeys.prefix,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    now,
    internalPublicKey: caller.publicKey,
    cursorKey: new HmacKey(randomBytes(32).toString('hex')),
    sealing: TEST_SEALING_KEYS,
    targets,
    sender,
    maxEndpointsPerOwner: MAX_ENDPOINTS_PER_OWNER,
  };
  const app = createApp(deps);

  /** Requests carrying the gateway's token for this principal (signed per request: tokens live 60 s). */
  const as = (principal: Principal) => {
    const send = (method: Method, path: string) => request(app)[method](path).set(caller.headers(principal));
    return {
      get: (path: string) => send('get', path),
      post: (path: string) => send('post', path),
      patch: (path: string) => send('patch', path),
      delete: (path: string) => send('delete', path),
    };
  };

  return {
    app,
    deps,
    caller,
    as,
    close: async () => {
      await sender.close();
      await redis.quit();
      await redisKeys.cleanup();
      await database.drop();
    },
  };
}

export type WebhooksHarness = Awaited<ReturnType<typeof startWebhooksHarness>>;
export type Client = ReturnType<WebhooksHarness['as']>;
export type Route = readonly [method: Method, path: string];

/** Every page of a listing, following meta.nextCursor with the same query, and how many pages it took. */
export async function collectPages(client: Client, path: string, query: Record<string, string>) {
  const items: { id: string }[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const res: request.Response = await client.get(path).query({ ...query, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`page ${pages + 1} answered ${res.status}: ${JSON.stringify(res.body)}`);
    items.push(...res.body.data);
    cursor = res.body.meta.nextCursor;
    pages++;
  } while (cursor);
  return { ids: items.map((item) => item.id), pages };
}
