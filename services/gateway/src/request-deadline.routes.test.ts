import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { expectError, type GatewayHarness, startGatewayHarness } from './testing/app-harness.js';

// Issue 15: every request through the gateway is answered within its deadline, 503 with Retry-After
// at the latest, even when the service behind it takes the request and never answers (a frozen process).
let frozenService: Server;
let harness: GatewayHarness;
beforeAll(async () => {
  frozenService = createServer(() => {}); // reads the request, answers nothing
  await new Promise<void>((resolve) => frozenService.listen(0, '127.0.0.1', resolve));
  const { port } = frozenService.address() as AddressInfo;
  harness = await startGatewayHarness({ REQUEST_DEADLINE_MS: '300', CATALOG_URL: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await harness.close();
  frozenService.closeAllConnections();
  await new Promise((resolve) => frozenService.close(resolve));
});

describe('the gateway request deadline', () => {
  it('answers 503 with Retry-After once a frozen service has had its time (the service deadline and a second)', async () => {
    const key = await harness.issueKey(await harness.restaurant());
    const started = Date.now();
    const res = await request(harness.app).get('/v1/partner/items/itm_frozen000000000000000').set(key.auth);
    expect(Date.now() - started).toBeLessThan(2_500);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    // The gateway goes on answering: /me needs no service.
    expect((await request(harness.app).get('/v1/partner/me').set(key.auth)).status).toBe(200);
  });

  it('holds the whole request to its own deadline, whatever the proxy would still wait', async () => {
    const key = await harness.issueKey(await harness.restaurant());
    const app = createApp({ ...harness.deps, requestDeadlineMs: 200 });
    const started = Date.now();
    const res = await request(app).get('/v1/partner/items/itm_frozen000000000000000').set(key.auth);
    expect(Date.now() - started).toBeLessThan(1_000);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('2');
  });
});
