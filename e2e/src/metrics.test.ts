import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

// Every service with METRICS_PORT set serves Prometheus metrics on that port (never on its own, never
// through the gateway): requests by route template, Node's process metrics, the database pool.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
}, 60_000);
afterAll(() => stack?.stop());

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
    expect(sample(gateway, 'http_requests_total', { ...detail, status_class: '2xx' })).toBe(3);
    expect(sample(gateway, 'http_requests_total', { ...detail, status_class: '4xx' })).toBe(1);
    expect(sample(gateway, 'http_requests_total', { service: 'gateway', route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(sample(gateway, 'http_request_duration_seconds_count', { ...detail, status_class: '2xx' })).toBe(3);
    // No id or path of a request ever becomes a label.
    expect(gateway).not.toContain(items[0]!.id);
    expect(gateway).not.toContain('nothing-here');

    const catalog = await scrape(stack.metricsPorts.catalog);
    const behind = { service: 'catalog', route: '/v1/partner/items/:id', method: 'GET' };
    expect(sample(catalog, 'http_requests_total', { ...behind, status_class: '2xx' })).toBe(3);
    expect(sample(catalog, 'http_requests_total', { ...behind, status_class: '4xx' })).toBe(1);
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
    expect(throughGateway.text).not.toContain('http_requests_total');
  });
});
