import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Principal } from '@partner/auth';
import { AccessLog } from './access-log.js';
import { silentLogger } from './logger.js';
import { ServiceMetrics } from './metrics.js';
import { createServiceApp } from './service-app.js';

// A service's answers as its observers see them: the access line and the metrics, by route template,
// with the caller the gateway's token named.
const principal: Principal = {
  kind: 'key',
  keyId: 'key_observed',
  keyType: 'secret',
  environment: 'live',
  scopes: ['menu:read'],
  owner: { kind: 'restaurant', id: 'rst_observed' },
};

function observedApp() {
  const lines: Record<string, unknown>[] = [];
  const accessLog = new AccessLog({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }, 'observed', 1);
  const metrics = new ServiceMetrics('observed');
  const app = createServiceApp({
    service: 'observed',
    logger: silentLogger(),
    guard: (req, _res, next) => {
      (req as { principal?: Principal }).principal = principal;
      next();
    },
    trustIncomingRequestId: true,
    maxBodyBytes: 1024,
    observers: { accessLog, metrics },
    register: (router) => router.get('/things/:id', (_req, res) => void res.json({ data: {} })),
  });
  return { app, lines, metrics };
}

describe('what observes a service’s answers', () => {
  it('writes the access line with the gateway’s request id and the calling key, and counts under the route template', async () => {
    const { app, lines, metrics } = observedApp();
    await request(app).get('/things/a').set('x-request-id', 'req_observedrequest1').expect(200);
    await request(app).get('/things/b').expect(200);
    await request(app).get('/elsewhere').expect(404);
    await expect.poll(() => lines.length).toBe(3);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      requestId: 'req_observedrequest1',
      route: '/things/:id',
      status: 200,
      keyId: 'key_observed',
      owner: 'restaurant:rst_observed',
      restaurantId: 'rst_observed',
    });
    expect(lines[2]).toMatchObject({ route: 'unmatched', status: 404 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_request_duration_seconds_count{route="/things/:id",method="GET",status_class="2xx",service="observed"} 2');
    expect(text).toContain('http_errors_total{code="not_found",service="observed"} 1');
  });
});
