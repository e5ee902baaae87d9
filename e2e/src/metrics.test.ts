import { readFile } from 'node:fs/promises';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '@partner/testing';
import { streamChat } from './sse-client.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// Every service with METRICS_PORT set serves Prometheus metrics on that port (never on its own, never
// through the gateway): requests by route template, Node's process metrics, the database pool.
let stack: Stack;
let model: FakeOpenAI;
beforeAll(async () => {
  model = await startFakeOpenAI({ tokens: ['Try', ' the', ' soup.'] });
  stack = await startStack({
    conciergeEnv: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: model.baseURL, CONCIERGE_MODEL: 'fake-model' },
    env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' },
    webhooksEnv: { WEBHOOK_DISPATCHER_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await model?.close();
});

const scrape = async (port: number | null) => {
  expect(port).not.toBeNull();
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

/** The value of the one series of `name` whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((pair) => candidate.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics', () => {
  it('count requests by route template and status class, at the gateway and at the service behind it', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const items = await Promise.all([1, 2, 3].map((n) => stack.console.createItem(restaurant.id, { name: `Dish ${n}`, priceCents: 900 })));
    for (const item of items) await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth).expect(200);
    await request(stack.gatewayUrl).get('/v1/partner/items/itm_missing').set(auth).expect(404);
    await request(stack.gatewayUrl).get('/v1/partner/nothing-here').set(auth).expect(404);

    const gateway = await scrape(stack.metricsPorts.gateway);
    const detail = { service: 'gateway', route: '/v1/partner/items/:id', method: 'GET' };
    expect(sample(gateway, 'http_request_duration_seconds_count', { ...detail, status_class: '2xx' })).toBe(3);
    expect(sample(gateway, 'http_request_duration_seconds_count', { ...detail, status_class: '4xx' })).toBe(1);
    expect(sample(gateway, 'http_request_duration_seconds_count', { service: 'gateway', route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(sample(gateway, 'http_request_duration_seconds_count', { ...detail, status_class: '2xx' })).toBe(3);
    // No id or path of a request ever becomes a label.
    expect(gateway).not.toContain(items[0]!.id);
    expect(gateway).not.toContain('nothing-here');

    const catalog = await scrape(stack.metricsPorts.catalog);
    const behind = { service: 'catalog', route: '/v1/partner/items/:id', method: 'GET' };
    expect(sample(catalog, 'http_request_duration_seconds_count', { ...behind, status_class: '2xx' })).toBe(3);
    expect(sample(catalog, 'http_request_duration_seconds_count', { ...behind, status_class: '4xx' })).toBe(1);
  });

  it('say why the gateway refused: a key and its reason, a limit, a service that answered or failed', async () => {
    await request(stack.gatewayUrl).get('/v1/partner/restaurants').expect(401);
    await request(stack.gatewayUrl).get('/v1/partner/restaurants').set('Authorization', 'Bearer nonsense').expect(401);
    const { auth } = await restaurantWithKey(stack, { rateLimitPerMin: 1 });
    await request(stack.gatewayUrl).get('/v1/partner/restaurants').set(auth).expect(200);
    await request(stack.gatewayUrl).get('/v1/partner/restaurants').set(auth).expect(429);

    const gateway = await scrape(stack.metricsPorts.gateway);
    expect(sample(gateway, 'gateway_auth_failures_total', { reason: 'missing' })).toBe(1);
    expect(sample(gateway, 'gateway_auth_failures_total', { reason: 'malformed' })).toBe(1);
    expect(sample(gateway, 'http_errors_total', { service: 'gateway', code: 'invalid_api_key' })).toBe(2);
    expect(sample(gateway, 'http_errors_total', { service: 'gateway', code: 'rate_limited' })).toBe(1);
    // The catalog answered every request the gateway forwarded: the ones of the test above, and this one.
    expect(sample(gateway, 'gateway_upstream_duration_seconds_count', { upstream: 'catalog', outcome: 'answered' })).toBe(5);
    expect(sample(gateway, 'gateway_upstream_duration_seconds_count', { upstream: 'catalog', outcome: 'error' })).toBeUndefined();
    const catalog = await scrape(stack.metricsPorts.catalog);
    expect(sample(catalog, 'http_errors_total', { service: 'catalog', code: 'not_found' })).toBe(1);
  });

  it('show the webhooks backlog, the outbox and every attempt’s outcome', async () => {
    const receiver = await startReceiver();
    try {
      const { restaurant, auth } = await restaurantWithKey(stack);
      await request(stack.gatewayUrl)
        .post('/v1/partner/webhook-endpoints')
        .set(auth)
        .send({ url: receiver.url, enabledEvents: ['item.created'] })
        .expect(201);
      for (let i = 0; i < 3; i++) await stack.console.createItem(restaurant.id, { name: `Hooked dish ${i}`, priceCents: 100 });
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(3);
      const attempts = async () =>
        sample(await scrape(stack.metricsPorts.webhooks), 'webhooks_delivery_attempts_total', { outcome: 'succeeded' });
      await expect.poll(attempts, { timeout: 5_000, interval: 100 }).toBe(3);
      const text = await scrape(stack.metricsPorts.webhooks);
      // Everything was delivered: nothing is due, nothing waits in the outbox.
      expect(text).toMatch(/^webhooks_due_deliveries\{service="webhooks"\} 0$/m);
      expect(text).toMatch(/^webhooks_oldest_due_age_seconds\{service="webhooks"\} 0$/m);
      expect(text).toMatch(/^webhooks_outbox_lag_seconds\{service="webhooks"\} [0-9.e-]+$/m);
      expect(text).toMatch(/^webhooks_disabled_endpoints\{service="webhooks"\} 0$/m);
      // The dispatcher LISTENs for new events, and its LISTEN was never lost.
      expect(text).toMatch(/^webhooks_outbox_listener_listening\{service="webhooks"\} 1$/m);
      expect(text).toMatch(/^webhooks_outbox_listener_lost_total\{service="webhooks"\} 0$/m);
    } finally {
      await receiver.close();
    }
  });

  it('show the catalog’s sync pages and menu cache, and the concierge’s turns, first deltas and tokens', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { scopes: ['menu:read', 'concierge:chat'] });
    await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 700, status: 'published' });
    const items = `/v1/partner/restaurants/${restaurant.id}/items`;
    const full = await request(stack.gatewayUrl).get(items).set(auth).expect(200);
    await request(stack.gatewayUrl).get(items).query({ updatedAfter: full.body.meta.syncWindowEnd }).set(auth).expect(200);
    const menu = `/v1/partner/restaurants/${restaurant.id}/menu`;
    await request(stack.gatewayUrl).get(menu).set(auth).expect(200);
    await request(stack.gatewayUrl).get(menu).set(auth).expect(200);
    const turn = await streamChat(`${stack.gatewayUrl}/v1/partner/restaurants/${restaurant.id}/concierge/chat`, auth, {
      message: 'Any soup?',
    });
    expect(turn.status, JSON.stringify(turn.json)).toBe(200);
    expect(turn.events.at(-1)!.event).toBe('done');

    const catalog = await scrape(stack.metricsPorts.catalog);
    expect(sample(catalog, 'catalog_sync_pages_total', { kind: 'full' })).toBeGreaterThanOrEqual(1);
    expect(sample(catalog, 'catalog_sync_pages_total', { kind: 'incremental' })).toBe(1);
    expect(sample(catalog, 'catalog_sync_items_total', { kind: 'full' })).toBeGreaterThanOrEqual(1);
    expect(sample(catalog, 'catalog_menu_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(sample(catalog, 'catalog_menu_cache_lookups_total', { result: 'hit' })).toBe(1);
    const concierge = await scrape(stack.metricsPorts.concierge);
    expect(sample(concierge, 'concierge_turns_total', { mode: 'live', outcome: 'answered' })).toBe(1);
    expect(sample(concierge, 'concierge_first_delta_seconds_count', { mode: 'live' })).toBe(1);
    expect(sample(concierge, 'concierge_model_tokens_total', { kind: 'completion' })).toBe(3);
    expect(sample(concierge, 'concierge_model_tokens_total', { kind: 'prompt' })).toBeGreaterThan(0);
  });

  it('show each service’s process, event loop and database pool', async () => {
    for (const [service, port] of Object.entries(stack.metricsPorts)) {
      const text = await scrape(port);
      expect(sample(text, 'process_cpu_user_seconds_total', { service })).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_p99_seconds', { service })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_max', { service })).toBeGreaterThan(0);
      expect(sample(text, 'db_pool_connections', { service, state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_waiting', { service })).toBe(0);
    }
  });

  it('answer only GET and HEAD /metrics on their port, and are never reachable through the gateway', async () => {
    const port = stack.metricsPorts.catalog;
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'HEAD' })).status).toBe(200);
    const throughGateway = await request(stack.gatewayUrl).get('/metrics');
    expect(throughGateway.status).toBe(404);
    expect(throughGateway.text).not.toContain('http_request_duration_seconds_count');
  });

  it('export every metric the dashboard and the alert rules of infra/observability use', async () => {
    const exported = new Set<string>();
    for (const port of Object.values(stack.metricsPorts)) {
      for (const line of (await scrape(port)).split('\n')) {
        const name = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line)?.[1];
        if (name) exported.add(name);
      }
    }
    const observability = new URL('../../infra/observability/', import.meta.url);
    const dashboard = JSON.parse(await readFile(new URL('dashboard.json', observability), 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const alerts = parseYaml(await readFile(new URL('alerts.yaml', observability), 'utf8')) as { groups: { rules: { expr: string }[] }[] };
    const expressions = [
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
      ...alerts.groups.flatMap((group) => group.rules.map((rule) => rule.expr)),
    ];
    const used = new Set(expressions.flatMap(metricsIn));
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'by',
  'without',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
]);

/** The metric names a PromQL expression reads: its identifiers, less label matchers, groupings, functions and keywords. */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((match) => match[0]).filter((word) => !PROMQL_WORDS.has(word));
}
