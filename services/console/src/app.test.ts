import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OPEN_ROUTES } from './accounts/console-guard.js';
import { expectError, listRoutes, useAppHarness } from './testing/app-harness.js';

const h = useAppHarness();

const PUBLIC = new Set(['GET /healthz', ...OPEN_ROUTES]);

// Read from the app itself, so a route added later is checked without anyone listing it here.
const routes = () => listRoutes(h.app).filter(({ method, path }) => !PUBLIC.has(`${method} ${path}`));

const call = (method: string, path: string) => {
  const url = path.replace(/:(\w+)/g, (_match, name: string) => (name === 'token' ? 'cl_abc' : 'rst_abc'));
  return request(h.app)[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url);
};

describe('the admin token', () => {
  it('finds every route of docs/console-api.md in the app (so the checks below cover them)', () => {
    const served = routes().map(({ method, path }) => `${method} ${path}`);
    expect(served).toEqual(
      expect.arrayContaining([
        'POST /console/restaurants',
        'GET /console/restaurants/:id',
        'PATCH /console/restaurants/:id',
        'POST /console/restaurants/:id/sections',
        'GET /console/restaurants/:id/sections',
        'POST /console/restaurants/:id/items',
        'PATCH /console/items/:id',
        'DELETE /console/items/:id',
        'POST /console/integrators',
        'GET /console/integrators/:id',
        'PATCH /console/integrators/:id',
        'POST /console/keys',
        'GET /console/keys',
        'POST /console/keys/:id/revoke',
        'POST /console/integrators/:id/connect-links',
        'POST /console/connect-links/:token/approve',
        'GET /console/integrators/:id/grants',
        'GET /console/restaurants/:id/grants',
        'POST /console/grants/:id/revoke',
        'GET /console/platform/kill-switch',
        'PUT /console/platform/kill-switch',
        'GET /console/audit-events',
        'GET /console/restaurants/:id/usage',
        'PUT /console/items/:id/model',
        'GET /console/webhook-deliveries',
        'POST /console/webhook-deliveries/:id/resend',
        'POST /console/webhook-endpoints/:id/enable',
        'POST /console/webhook-endpoints/:id/recover',
      ]),
    );
  });

  describe.each([
    ['no Authorization header', {}],
    ['a wrong token', { Authorization: 'Bearer adm_not-the-admin-token-at-all' }],
    ['a partner key', { Authorization: 'Bearer svc_sk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }],
    ['the token without the Bearer scheme', () => ({ Authorization: h.deps.adminToken })],
    ['the token with a character more', () => ({ Authorization: `Bearer ${h.deps.adminToken}x` })],
  ])('with %s', (_name, headers) => {
    it('every route answers 401 unauthorized in the error envelope', async () => {
      const set = typeof headers === 'function' ? headers() : headers;
      for (const { method, path } of routes()) {
        const res = await call(method, path).set(set);
        expect.soft(res.status, `${method} ${path}`).toBe(401);
        expectError(res, 401, 'unauthorized');
      }
    });
  });

  it('lets the admin token through on every route (whatever the route then answers)', async () => {
    for (const { method, path } of routes()) {
      const res = await call(method, path).set(h.admin);
      expect.soft(res.status, `${method} ${path}`).not.toBe(401);
      // Never a crash: a 5xx here can only be the unreachable webhooks service behind the webhook routes.
      if (res.status >= 500) expect.soft(res.body.error?.code, `${method} ${path}`).toBe('service_unavailable');
    }
    expect((await call('GET', '/console/platform/kill-switch').set({ Authorization: `bearer   ${h.deps.adminToken}` })).status).toBe(200);
  });

  it('refuses an unknown path without the token, and answers 404 for it with the token', async () => {
    expectError(await request(h.app).get('/console/nothing-here'), 401, 'unauthorized');
    expectError(await request(h.app).get('/console/nothing-here').set(h.admin), 404, 'not_found');
  });

  it('answers the health check without a token', async () => {
    const res = await request(h.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', service: 'console' });
  });

  it('makes its own request id rather than trusting the caller’s', async () => {
    const res = await request(h.app).get('/console/nothing-here').set('X-Request-Id', 'req_callerchosen123');
    expect(res.headers['x-request-id']).not.toBe('req_callerchosen123');
    expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
  });
});

describe('request bodies', () => {
  it('refuses malformed JSON, another content type and a body over 1 MiB in the envelope', async () => {
    const post = () => request(h.app).post('/console/restaurants').set(h.admin);
    expectError(await post().set('Content-Type', 'application/json').send('{"name":'), 400, 'invalid_request');
    expectError(await post().set('Content-Type', 'text/plain').send('name=x'), 415, 'unsupported_media_type');
    expectError(await post().send({ name: 'x', slug: 'x', houseNotes: 'x'.repeat(1024 * 1024 + 1) }), 413, 'payload_too_large');
  });
});
