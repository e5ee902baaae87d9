import { readdir } from 'node:fs/promises';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnPgBouncer, startFakeOpenAI, startPgBouncer } from '@partner/testing';
import { streamChat } from './sse-client.js';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// Two gateways, and two replicas of catalog, webhooks (both dispatching) and concierge behind
// balancers, on one Postgres behind PgBouncer in transaction mode (as docs/deployment.md configures
// it), one Redis and one S3 bucket: the cross-service flows hold whichever replica answers, and
// whichever server connection PgBouncer lends each transaction.
let stack: Stack;
let model: Awaited<ReturnType<typeof startFakeOpenAI>>;
let bouncer: OwnPgBouncer;
beforeAll(async () => {
  model = await startFakeOpenAI({ tokens: ['Try', ' the', ' soup.'] });
  bouncer = await startPgBouncer();
  stack = await startStack({
    databaseProxy: bouncer,
    gateways: 2,
    replicas: 2,
    storage: 's3',
    webhooksEnv: { WEBHOOK_DISPATCHER_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    conciergeEnv: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: model.baseURL, CONCIERGE_MODEL: 'fake-model' },
  });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await bouncer?.stop();
  await model.close();
});

/** Gateway i of the two, in turn. */
const gateway = (i: number) => stack.gatewayUrls[i % stack.gatewayUrls.length]!;

describe('two replicas of every service', () => {
  it("reach the database through PgBouncer: the services' connections are its clients", async () => {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(stack.db);
    const database = rows[0]!.name;
    const clients = await bouncer.clientDatabases();
    expect(clients.filter((name) => name === database).length).toBeGreaterThan(0);
  });

  it('sync: every item exactly once, pages fetched from either gateway', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 10_000 });
    const created = [];
    for (let i = 0; i < 23; i++) created.push(await stack.console.createItem(restaurant.id, { name: `Dish ${i}`, priceCents: 500 + i }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const res: request.Response = await request(gateway(page++))
        .get(`/v1/partner/restaurants/${restaurant.id}/items`)
        .query({ limit: 5, ...(cursor ? { cursor } : {}) })
        .set(auth);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((item: { id: string }) => item.id));
      cursor = res.body.meta.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(created.map((item) => item.id).sort());
  });

  it('item detail: a model uploaded through console is served, and its files fetched, through both gateways', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Plated', priceCents: 1200 });
    const files = await sampleModelFiles();
    await stack.console.uploadModel(item.id, files);
    expect(await readdir(stack.assetDir)).toEqual([]); // in the bucket, not on a disk the replicas share
    for (let i = 0; i < 4; i++) {
      const detail = await request(gateway(i)).get(`/v1/partner/items/${item.id}`).set(auth);
      expect(detail.status).toBe(200);
      const signed = new URL(detail.body.data.assets.glbUrl as string);
      const glb = await fetch(`${gateway(i + 1)}${signed.pathname}${signed.search}`);
      expect(glb.status).toBe(200);
      expect(Buffer.from(await glb.arrayBuffer()).equals(Buffer.from(files.glb))).toBe(true);
    }
  });

  it('webhooks: with both dispatchers running, each event reaches the endpoint once', async () => {
    const receiver = await startReceiver();
    try {
      const { restaurant, auth } = await restaurantWithKey(stack);
      const endpoint = await request(gateway(0))
        .post('/v1/partner/webhook-endpoints')
        .set(auth)
        .send({ url: receiver.url, enabledEvents: ['item.created'] });
      expect(endpoint.status).toBe(201);
      for (let i = 0; i < 40; i++) await stack.console.createItem(restaurant.id, { name: `Event dish ${i}`, priceCents: 100 });
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(40);
      await new Promise((resolve) => setTimeout(resolve, 500)); // a duplicate would arrive by now
      const ids = receiver.received.map((received) => (JSON.parse(received.body) as { id: string }).id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
    } finally {
      await receiver.close();
    }
  });

  it('concierge: turns stream to their end through both gateways', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 1000 });
    await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600, status: 'published' });
    const turns = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        streamChat(`${gateway(i)}/v1/partner/restaurants/${restaurant.id}/concierge/chat`, auth, { message: 'Any soup?' }),
      ),
    );
    for (const turn of turns) {
      expect(turn.status).toBe(200);
      expect(turn.events.map((event) => event.event)).toContain('delta');
      expect(turn.events.at(-1)!.event).toBe('done');
    }
  });
});
