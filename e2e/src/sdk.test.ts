import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FetchLike,
  isApiError,
  PartnerApiError,
  PartnerClient,
  type PartnerClientOptions,
  type SyncChange,
  verifyWebhook,
} from '@partner/sdk';
import { startFakeOpenAI } from '@partner/testing';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// The SDK against the whole platform, over HTTP through the gateway, as an integrator runs it.

let stack: Stack;
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
const script = { tokens: ['Try ', 'the ', 'soup.'], holdBeforeToken: undefined as number | undefined };
/** How far the gateway's clock runs ahead of the real one: the rate-limit test puts it just before a minute. */
let gatewayAheadMs = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI(script);
  stack = await startStack({
    realPublicUrl: true,
    gatewayClock: () => new Date(Date.now() + gatewayAheadMs),
    webhooksEnv: { WEBHOOK_DISPATCHER_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    conciergeEnv: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseURL, CONCIERGE_MODEL: 'fake-model' },
  });
});
afterAll(async () => {
  await stack.stop();
  await fake.close();
});

interface Call {
  method: string;
  url: string;
  status: number;
  at: number;
  headers: Record<string, string>;
}

/** The global fetch, recording every request the SDK makes and what it got. */
function recordingFetch() {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    const res = await globalThis.fetch(url, init);
    calls.push({
      method: init.method ?? 'GET',
      url,
      status: res.status,
      at: Date.now(),
      headers: { ...(init.headers as Record<string, string>) },
    });
    return res;
  };
  return { fetch, calls };
}

function sdk(apiKey: string, options: Partial<PartnerClientOptions> = {}) {
  const recorded = recordingFetch();
  const client = new PartnerClient({ apiKey, baseUrl: stack.gatewayUrl, fetch: recorded.fetch, ...options });
  return { client, calls: recorded.calls };
}

async function kitchen(itemCount: number, key: Parameters<typeof restaurantWithKey>[1] = {}) {
  const owner = await restaurantWithKey(stack, { rateLimitPerMin: 10_000, ...key });
  const items = [];
  for (let i = 0; i < itemCount; i++) {
    items.push(await stack.console.createItem(owner.restaurant.id, { name: `Dish ${i}`, priceCents: 100 + i }));
  }
  return { ...owner, items, ...sdk(owner.key.value) };
}

async function collect(sync: AsyncIterable<SyncChange>) {
  const changes: SyncChange[] = [];
  for await (const change of sync) changes.push(change);
  return changes;
}

describe('lists', () => {
  it('iterates every item across pages, one request a page', async () => {
    const { restaurant, items, client, calls } = await kitchen(5);
    const seen = [];
    for await (const item of client.items.list(restaurant.id, { limit: 2 })) seen.push(item.id);
    expect(seen.sort()).toEqual(items.map((item) => item.id).sort());
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    expect(new URL(calls[2]!.url).searchParams.get('cursor')).toBeTruthy();
    expect((await client.restaurants.list().toArray()).map((found) => found.id)).toEqual([restaurant.id]);
  });
});

describe('sync', () => {
  it('yields changes and a tombstone once each, keeps the window, and starts over when told to', async () => {
    const { restaurant, items, client } = await kitchen(3);
    const sync = client.items.sync(restaurant.id, { limit: 2 });
    const first = await collect(sync);
    expect(first.map((change) => change.type)).toEqual(['upsert', 'upsert', 'upsert']);
    const window = sync.updatedAfter!;
    expect(window).toEqual(expect.any(String));

    await stack.console.updateItem(items[0]!.id, { priceCents: 999 });
    await stack.console.deleteItem(items[1]!.id);
    const created = await stack.console.createItem(restaurant.id, { name: 'New dish', priceCents: 500 });
    const second = await collect(sync);
    expect(second).toHaveLength(3);
    expect(second).toContainEqual({ type: 'upsert', item: expect.objectContaining({ id: items[0]!.id, priceCents: 999 }) });
    expect(second).toContainEqual({
      type: 'delete',
      id: items[1]!.id,
      tombstone: expect.objectContaining({ object: 'item', deleted: true }),
    });
    expect(second).toContainEqual({ type: 'upsert', item: expect.objectContaining({ id: created.id, name: 'New dish' }) });
    expect(sync.updatedAfter! > window).toBe(true);
    expect(await collect(sync)).toEqual([]);

    // A checkpoint older than the tombstone retention: reset, then everything that lives.
    const stale = client.items.sync(restaurant.id, { updatedAfter: '2020-01-01T00:00:00.000Z' });
    const again = await collect(stale);
    expect(again[0]).toEqual({ type: 'reset' });
    expect(
      again
        .slice(1)
        .map((change) => change.type === 'upsert' && change.item.id)
        .sort(),
    ).toEqual([items[0]!.id, items[2]!.id, created.id].sort());
    expect(stale.updatedAfter! >= sync.updatedAfter!).toBe(true);
  });
});

describe('menu', () => {
  it('reuses the cached menu on 304 and takes the new one once it changed', async () => {
    const { restaurant, items, client, calls } = await kitchen(2);
    const first = await client.menus.get(restaurant.id);
    expect(first.unsectionedItems.map((item) => item.id).sort()).toEqual(items.map((item) => item.id).sort());
    expect(await client.menus.get(restaurant.id)).toBe(first);
    await stack.console.updateItem(items[0]!.id, { name: 'Renamed' });
    const changed = await client.menus.get(restaurant.id);
    expect(changed.unsectionedItems.find((item) => item.id === items[0]!.id)!.name).toBe('Renamed');
    expect(calls.map((call) => [call.status, call.headers['if-none-match']])).toEqual([
      [200, undefined],
      [304, expect.stringMatching(/^"/)],
      [200, calls[1]!.headers['if-none-match']],
    ]);
  });
});

describe('asset URLs', () => {
  it('serves cached URLs while they are fresh and refreshes them before they expire', async () => {
    const owner = await restaurantWithKey(stack, { rateLimitPerMin: 10_000 });
    const item = await stack.console.createItem(owner.restaurant.id, { name: 'Plate', priceCents: 1200 });
    await stack.console.uploadModel(item.id, await sampleModelFiles());
    // The SDK's clock, moved by the test; the API's stays real.
    let aheadMs = 0;
    const clock = { now: () => Date.now() + aheadMs, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
    const { client, calls } = sdk(owner.key.value, { clock });

    const urls = await client.assets.get(item.id);
    expect(await client.assets.get(item.id)).toBe(urls);
    expect(calls).toHaveLength(1);
    aheadMs = Date.parse(urls.expiresAt) - Date.now() - 60_000;
    const fresh = await client.assets.get(item.id);
    expect(calls.map((call) => [call.method, new URL(call.url).pathname, call.status])).toEqual([
      ['POST', `/v1/partner/items/${item.id}/asset-urls`, 200],
      ['POST', `/v1/partner/items/${item.id}/asset-urls`, 200],
    ]);
    expect(fresh).not.toBe(urls);
    const file = await fetch(fresh.glbUrl!);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});

describe('concierge', () => {
  async function conciergeKitchen(environment: 'live' | 'test') {
    const owner = await kitchen(0, { environment, rateLimitPerMin: 1000 });
    await stack.console.updateRestaurant(owner.restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const soup = await stack.console.createItem(owner.restaurant.id, { name: 'Tomato soup', priceCents: 700 });
    return { ...owner, soup };
  }

  it('streams a turn as typed events, to done', async () => {
    const { restaurant, soup, client } = await conciergeKitchen('test');
    let text = '';
    const kinds: string[] = [];
    for await (const event of client.concierge.chat(restaurant.id, { message: 'Do you have soup?' })) {
      kinds.push(event.event);
      if (event.event === 'meta') expect(event.data).toMatchObject({ testMode: true, disclosure: expect.any(String) });
      if (event.event === 'delta') text += event.data.text;
      if (event.event === 'cards') expect(event.data.cards.map((card) => card.itemId)).toContain(soup.id);
    }
    expect(kinds[0]).toBe('meta');
    expect(kinds.at(-1)).toBe('done');
    expect(text.length).toBeGreaterThan(0);
  });

  it('stops mid-stream on abort, and the model call upstream is cancelled', async () => {
    const { restaurant, client } = await conciergeKitchen('live');
    // The reply reaches the client a sentence at a time: the first one before the model holds back the rest.
    Object.assign(script, { tokens: ['Hello. ', 'Try ', 'the soup.'], holdBeforeToken: 2 });
    fake.hold();
    const controller = new AbortController();
    const kinds: string[] = [];
    const read = async () => {
      for await (const event of client.concierge.chat(restaurant.id, { message: 'Soup?' }, { signal: controller.signal })) {
        kinds.push(event.event);
        if (event.event === 'delta') controller.abort();
      }
    };
    await expect(read()).rejects.toMatchObject({ name: 'AbortError' });
    expect(kinds).toEqual(['meta', 'delta']);
    await expect.poll(() => fake.requests.at(-1)?.closedEarly, { timeout: 2000 }).toBe(true);
    fake.release();
    script.holdBeforeToken = undefined;
  });
});

describe('retries and errors', () => {
  it('retries a 429 after its Retry-After, the POST with the same Idempotency-Key', async () => {
    const { client, calls } = await kitchen(0, { rateLimitPerMin: 1 });
    // The gateway's minute ends 1.5 s from now: the first request takes the minute's only slot, the
    // second is told to come back in 2 s, when a new minute has begun.
    const nextMinute = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
    gatewayAheadMs = nextMinute - 1500 - Date.now();
    try {
      await client.me();
      const receiver = await startReceiver();
      const endpoint = await client.webhookEndpoints.create({ url: receiver.url, enabledEvents: ['item.updated'] });
      await receiver.close();
      expect(calls.map((call) => call.status)).toEqual([200, 429, 201]);
      const [, refused, retried] = calls;
      expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(2000);
      expect(refused!.headers['idempotency-key']).toBeTruthy();
      expect(retried!.headers['idempotency-key']).toBe(refused!.headers['idempotency-key']);
      expect(endpoint.secret).toMatch(/^whsec_/);
    } finally {
      gatewayAheadMs = 0;
    }
  });

  it('throws typed errors: a bad key, a missing item', async () => {
    const { client } = sdk(`svc_sk_live_${'a'.repeat(38)}`);
    const error = await client.me().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ code: 'invalid_api_key', status: 401, requestId: expect.stringMatching(/^req_/) });

    const owner = await kitchen(0);
    const missing = await owner.client.items.get('itm_doesnotexist').catch((err: unknown) => err);
    expect(isApiError(missing, 'not_found')).toBe(true);
    expect(missing).toMatchObject({ status: 404 });
  });
});

describe('webhooks', () => {
  it('verifies real deliveries in both signature schemes, and lists them page by page', async () => {
    const receiver = await startReceiver();
    const { restaurant, items, client } = await kitchen(1);
    const service = await client.webhookEndpoints.create({ url: `${receiver.url}?service`, enabledEvents: ['item.updated'] });
    const standard = await client.webhookEndpoints.create({
      url: `${receiver.url}?standard`,
      enabledEvents: ['item.updated'],
      signatureScheme: 'standard-webhooks',
    });
    expect((await client.webhookEndpoints.list({ limit: 1 }).toArray()).map((endpoint) => endpoint.id).sort()).toEqual(
      [service.id, standard.id].sort(),
    );

    await stack.console.updateItem(items[0]!.id, { priceCents: 4321 });
    await expect.poll(() => receiver.received.length, { timeout: 5000, interval: 20 }).toBe(2);
    const received = (query: string) => receiver.received.find((entry) => entry.url.endsWith(query))!;
    const viaService = await verifyWebhook(received('?service').body, received('?service').headers, service.secret);
    const viaStandard = await verifyWebhook(received('?standard').body, received('?standard').headers, standard.secret);
    for (const event of [viaService, viaStandard]) {
      expect(event).toMatchObject({ type: 'item.updated', data: { itemId: items[0]!.id, restaurantId: restaurant.id } });
    }
    expect(received('?standard').headers['webhook-id']).toBe(viaStandard.id);
    // Another endpoint's secret does not verify.
    await expect(verifyWebhook(received('?service').body, received('?service').headers, standard.secret)).rejects.toMatchObject({
      status: 401,
    });

    const ping = await client.webhookEndpoints.test(standard.id);
    expect(ping).toMatchObject({ eventType: 'ping', status: 'succeeded' });
    const pinged = receiver.received.at(-1)!;
    expect(await verifyWebhook(pinged.body, pinged.headers, standard.secret)).toMatchObject({
      type: 'ping',
      data: { endpointId: standard.id },
    });

    const deliveries = await client.webhookDeliveries.list({ endpointId: standard.id, limit: 1 }).toArray();
    expect(deliveries.map((delivery) => delivery.eventType).sort()).toEqual(['item.updated', 'ping']);
    await receiver.close();
  });
});
