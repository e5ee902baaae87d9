import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '@partner/console/client';
import { freePort, platformEnvironment, startFakeOpenAI, type TestDatabase, useTestDatabase } from '@partner/testing';
import { type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';
import { streamChat } from './sse-client.js';
import { REDIS_URL } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// The services as production runs them (`node dist/main.js`), each exporting its spans over OTLP to a
// receiver of the test's: tracing is set up before anything it traces is imported, which only a
// process of its own shows.
const mainOf = (service: string) => fileURLToPath(new URL(`../../services/${service}/dist/main.js`, import.meta.url));

const SERVER = 2;
const CLIENT = 3;

let database: TestDatabase;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let model: Awaited<ReturnType<typeof startFakeOpenAI>>;
const children: ReturnType<typeof spawn>[] = [];
beforeAll(async () => {
  database = await useTestDatabase();
  otlp = await startOtlpReceiver();
  model = await startFakeOpenAI({ tokens: ['Try', ' the', ' soup.'] });
  environment = {
    ...platformEnvironment(database.url, REDIS_URL),
    PATH: process.env.PATH ?? '',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await otlp.close();
  await model.close();
  await database.drop();
});

/** The whole platform's variables, one set for every process of the file, exporting spans to the receiver. */
let environment: Record<string, string>;
const adminToken = () => environment.CONSOLE_ADMIN_TOKEN!;

async function run(service: string, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [mainOf(service)], { env: { ...environment, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const port = Number(Object.entries(env).find(([name]) => name.endsWith('_PORT'))![1]);
  for (let waited = 0; ; waited += 50) {
    if (child.exitCode !== null) throw new Error(`${service} exited ${child.exitCode}:\n${errors}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    if (waited > 30_000) throw new Error(`${service} not ready after 30 s:\n${errors}`);
    await sleep(50);
  }
}

/** The spans received so far that `match`, once at least `count` have arrived (the exporters batch). */
async function spansWhere(match: (span: ReceivedSpan) => boolean, count = 1): Promise<ReceivedSpan[]> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const found = otlp.spans.filter(match);
    if (found.length >= count) return found;
    await sleep(50);
  }
  return otlp.spans.filter(match);
}

describe('traces over OTLP (http/json)', () => {
  const ports = { gateway: 0, catalog: 0, console: 0, webhooks: 0, concierge: 0 };
  let consoleApi: ConsoleClient;
  beforeAll(async () => {
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    const json = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    await Promise.all([
      run('catalog', { ...json, CATALOG_PORT: String(ports.catalog) }),
      run('console', { ...json, CONSOLE_PORT: String(ports.console) }),
      run('webhooks', {
        ...json,
        WEBHOOKS_PORT: String(ports.webhooks),
        WEBHOOK_DISPATCHER_ENABLED: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      }),
      run('concierge', {
        ...json,
        CONCIERGE_PORT: String(ports.concierge),
        OPENAI_API_KEY: 'sk-test-fake',
        OPENAI_BASE_URL: model.baseURL,
        CONCIERGE_MODEL: 'fake-model',
      }),
    ]);
    await run('gateway', {
      ...json,
      GATEWAY_PORT: String(ports.gateway),
      CATALOG_URL: `http://127.0.0.1:${ports.catalog}`,
      WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
      CONCIERGE_URL: `http://127.0.0.1:${ports.concierge}`,
    });
    consoleApi = new ConsoleClient({ baseUrl: `http://127.0.0.1:${ports.console}`, adminToken: adminToken() });
  }, 60_000);

  it('one item-detail request is one trace: the gateway continuing the caller, catalog and its Postgres queries under it', async () => {
    const restaurant = await consoleApi.createRestaurant({ name: 'Traced Kitchen', slug: 'traced-kitchen', currency: 'EUR' });
    const key = await consoleApi.createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'traced' });
    const item = await consoleApi.createItem(restaurant.id, { name: 'Traced soup', priceCents: 700 });
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');

    const res = await request(`http://127.0.0.1:${ports.gateway}`)
      .get(`/v1/partner/items/${item.id}`)
      .set('Authorization', `Bearer ${key.value}`)
      .set('traceparent', `00-${callerTrace}-${callerSpan}-01`);
    expect(res.status).toBe(200);

    const inTrace = (span: ReceivedSpan) => span.traceId === callerTrace;
    // Each service's spans end before its server span, and leave with it or before: once both server
    // spans are in, the whole trace is.
    await spansWhere((span) => inTrace(span) && span.kind === SERVER, 2);
    const trace = otlp.spans.filter(inTrace);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const gatewayServer = trace.find((span) => span.service === 'gateway' && span.kind === SERVER)!;
    expect(gatewayServer).toMatchObject({ parentSpanId: callerSpan, name: 'GET /v1/partner/items/:id' });
    // The hop: the gateway's client span, and catalog's server span under it.
    const catalogServer = trace.find((span) => span.service === 'catalog' && span.kind === SERVER)!;
    const hop = byId.get(catalogServer.parentSpanId!)!;
    expect(hop).toMatchObject({ service: 'gateway', kind: CLIENT, parentSpanId: gatewayServer.spanId });
    expect(catalogServer.name).toMatch(/^GET \/v1\/partner\/items\/:\w+$/);
    // Catalog's queries, each under catalog's server span.
    const queries = trace.filter((span) => span.service === 'catalog' && span.attributes['db.system.name'] === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    const ancestors = (span: ReceivedSpan): string[] => (span.parentSpanId ? [span.parentSpanId, ...ancestors(byId.get(span.parentSpanId) ?? { ...span, parentSpanId: null })] : []);
    for (const query of queries) expect(ancestors(query)).toContain(catalogServer.spanId);
    // The gateway's own lookups: the key in Postgres, the rate limits in Redis.
    const gatewayCalls = trace.filter((span) => span.service === 'gateway' && span.parentSpanId === gatewayServer.spanId);
    expect(gatewayCalls.map((span) => span.attributes['db.system.name'])).toEqual(expect.arrayContaining(['postgresql', 'redis']));
    // Nothing of the trace is left without its parent in the trace (or the caller's span).
    for (const span of trace) expect([callerSpan, ...byId.keys()]).toContain(span.parentSpanId);
  });

  it("a webhook delivery's trace links back to the change that caused it, and the receiver gets no trace context", async () => {
    const receiver = await startReceiver();
    try {
      const restaurant = await consoleApi.createRestaurant({ name: 'Linked Kitchen', slug: 'linked-kitchen', currency: 'EUR' });
      const key = await consoleApi.createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'linked' });
      const created = await request(`http://127.0.0.1:${ports.gateway}`)
        .post('/v1/partner/webhook-endpoints')
        .set('Authorization', `Bearer ${key.value}`)
        .send({ url: receiver.url, enabledEvents: ['item.created'] });
      expect(created.status).toBe(201);

      const changeTrace = randomBytes(16).toString('hex');
      const item = await fetch(`http://127.0.0.1:${ports.console}/console/restaurants/${restaurant.id}/items`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken()}`, 'content-type': 'application/json', traceparent: `00-${changeTrace}-${randomBytes(8).toString('hex')}-01` },
        body: JSON.stringify({ name: 'Linked soup', priceCents: 900 }),
      });
      expect(item.status).toBe(201);
      const itemId = ((await item.json()) as { data: { id: string } }).data.id;

      const [delivery] = await spansWhere((span) => span.service === 'webhooks' && span.name === 'webhook.deliver' && span.links.some((link) => link.traceId === changeTrace));
      expect(delivery).toBeDefined();
      expect(delivery!.traceId).not.toBe(changeTrace);
      expect(delivery!.attributes).toMatchObject({ 'webhook.event_type': 'item.created', 'http.response.status_code': 200 });
      // The change's own trace holds the span the link names: console's request.
      const [linked] = await spansWhere((span) => span.spanId === delivery!.links[0]!.spanId);
      expect(linked).toMatchObject({ service: 'console', kind: SERVER, traceId: changeTrace });

      const hit = receiver.received.find((entry) => entry.body.includes(itemId))!;
      expect(hit).toBeDefined();
      expect(hit.headers.traceparent).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it("a concierge turn's trace holds the model call, its tokens, and the HTTP request under it", async () => {
    const restaurant = await consoleApi.createRestaurant({ name: 'Chatty Kitchen', slug: 'chatty-kitchen', currency: 'EUR' });
    await consoleApi.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const key = await consoleApi.createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'chatty' });
    await consoleApi.createItem(restaurant.id, { name: 'Tomato soup', priceCents: 700 });
    const turn = await streamChat(`http://127.0.0.1:${ports.gateway}/v1/partner/restaurants/${restaurant.id}/concierge/chat`, { Authorization: `Bearer ${key.value}` }, { message: 'Any soup?' });
    expect(turn.status).toBe(200);

    const [call] = await spansWhere((span) => span.service === 'concierge' && span.name === 'chat fake-model');
    expect(call).toMatchObject({ kind: CLIENT, attributes: { 'gen_ai.request.model': 'fake-model', 'gen_ai.usage.output_tokens': expect.any(Number) } });
    const [server] = await spansWhere((span) => span.spanId === call!.parentSpanId);
    expect(server).toMatchObject({ service: 'concierge', kind: SERVER, traceId: call!.traceId });
    const [http] = await spansWhere((span) => span.parentSpanId === call!.spanId && span.kind === CLIENT);
    expect(http).toMatchObject({ name: 'POST', attributes: { 'server.port': expect.any(Number) } });
  });

  it('probes are not traced', async () => {
    await fetch(`http://127.0.0.1:${ports.catalog}/healthz`);
    await fetch(`http://127.0.0.1:${ports.catalog}/readyz`);
    await sleep(500);
    expect(otlp.spans.filter((span) => span.kind === SERVER && /healthz|readyz/.test(String(span.attributes['url.path'])))).toEqual([]);
  });
});

describe('traces over OTLP (http/protobuf, the default)', () => {
  it("a service's spans arrive as protobuf, with the service's name", async () => {
    const port = await freePort();
    await run('catalog', { CATALOG_PORT: String(port) });
    const path = `/v1/partner/restaurants/rst_${randomBytes(6).toString('hex')}/items`;
    expect((await fetch(`http://127.0.0.1:${port}${path}`)).status).toBe(401);
    const sent = () => otlp.protobufBodies.find((body) => body.includes(path));
    for (let waited = 0; waited < 10_000 && !sent(); waited += 50) await sleep(50);
    expect(sent()?.includes('catalog')).toBe(true);
  });
});
