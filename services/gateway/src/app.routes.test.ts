import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '@partner/auth';
import { SCOPES, type TScope } from '@partner/contracts';
import { createApp } from './app.js';
import { ROUTES, type Route } from './routing/route-table.js';
import {
  expectError,
  GATEWAY_REQUEST_ID,
  type GatewayHarness,
  type KeyOptions,
  type Owner,
  startGatewayHarness,
  tokenClaims,
} from './testing/app-harness.js';

let harness: GatewayHarness;
let restaurant: Owner;
beforeAll(async () => {
  harness = await startGatewayHarness();
  restaurant = await harness.restaurant();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.upstream.take();
});

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';
const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  request(harness.app)[method.toLowerCase() as Method](path).set(headers);

const keyFor = (options?: KeyOptions) => harness.issueKey(restaurant, options);
const everyScopeBut = (scope: TScope) => SCOPES.filter((other) => other !== scope);

const ORIGIN = 'https://shop.example.com';
const publishable = () => keyFor({ type: 'publishable', allowedOrigins: [ORIGIN] });

/** Asserts that this one request reached `service` as sent and that its answer came back; returns what the service saw. */
function expectReached(res: request.Response, service: string, method: string, url: string) {
  expect(res.status).toBe(200);
  const seen = harness.upstream.take();
  expect(seen.map((one) => ({ service: one.service, method: one.method, url: one.url }))).toEqual([{ service, method, url }]);
  return seen[0]!;
}

const expectNotReached = () => expect(harness.upstream.take()).toEqual([]);

describe('API keys', () => {
  /** Changes one character of the key's random body, so that its checksum no longer matches. */
  const withBadChecksum = (value: string) => value.slice(0, 12) + (value[12] === 'a' ? 'b' : 'a') + value.slice(13);

  // Malformed and bad-checksum keys are stored too: only the shape check stands between them and a lookup.
  it.each<[string, () => Promise<Record<string, string>>]>([
    ['without an Authorization header', async () => ({})],
    ['with another scheme than Bearer', async () => ({ Authorization: `Basic ${(await keyFor()).value}` })],
    ['with a malformed key', async () => (await keyFor({ value: 'svc_sk_live_tooShort' })).auth],
    [
      'with a key whose checksum is wrong',
      async () => (await keyFor({ value: withBadChecksum(generateApiKey('secret', 'live').value) })).auth,
    ],
    ['with an unknown key', async () => ({ Authorization: `Bearer ${generateApiKey('secret', 'live').value}` })],
    ['with a revoked key', async () => (await keyFor({ revokedAt: new Date(Date.now() - 1_000) })).auth],
    ['with an expired key', async () => (await keyFor({ expiresAt: new Date(Date.now() - 1_000) })).auth],
  ])('refuses a request %s with 401 invalid_api_key, before counting or proxying', async (_name, headers) => {
    const res = await call('GET', '/v1/partner/restaurants', await headers());
    expectError(res, 401, 'invalid_api_key');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expectNotReached();
  });

  it('lets a key through until it expires', async () => {
    const key = await keyFor({ expiresAt: new Date(Date.now() + 60_000) });
    expectReached(await call('GET', '/v1/partner/restaurants', key.auth), 'catalog', 'GET', '/v1/partner/restaurants');
  });

  it('authenticates before routing: without a valid key an unknown path or method is 401 too', async () => {
    expectError(await call('GET', '/v1/partner/no-such-thing'), 401, 'invalid_api_key');
    expectError(await call('DELETE', '/v1/partner/me'), 401, 'invalid_api_key');
  });

  it('refuses a key revoked while the gateway holds it in cache, once console says so over pub/sub', async () => {
    const key = await keyFor();
    expect((await call('GET', '/v1/partner/me', key.auth)).status).toBe(200);
    await harness.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', key.row.id).execute();
    // Still cached: the invalidation is what makes a revocation take effect at once.
    expect((await call('GET', '/v1/partner/me', key.auth)).status).toBe(200);
    await harness.invalidateKeys({ keyId: key.row.id });
    await expect.poll(async () => (await call('GET', '/v1/partner/me', key.auth)).status, { timeout: 2_000, interval: 20 }).toBe(401);
  });
});

describe('X-Service-Environment', () => {
  it.each<[string, () => Promise<Record<string, string>>, string]>([
    ['without a key', async () => ({}), 'live'],
    ['with a refused key whose prefix says test', async () => ({ Authorization: 'Bearer svc_sk_test_notAKey' }), 'test'],
    ['with a valid test key', async () => (await keyFor({ environment: 'test' })).auth, 'test'],
    ['with a valid live key', async () => (await keyFor()).auth, 'live'],
  ])('names the environment of a request %s', async (_name, headers, environment) => {
    const res = await call('GET', '/v1/partner/restaurants', await headers());
    expect(res.headers['x-service-environment']).toBe(environment);
  });
});

describe('outside the partner API', () => {
  it('answers the health check with a request id and the environment', async () => {
    const res = await call('GET', '/healthz');
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: { status: 'ok' } });
    expect(res.headers['x-service-environment']).toBe('live');
    expect(res.headers['x-request-id']).toMatch(GATEWAY_REQUEST_ID);
  });

  it.each(['/v1/nothing-here', '/embed/nothing-here.js', '/nothing-here'])('answers %s with 404 not_found, no key needed', async (path) => {
    expectError(await call('GET', path), 404, 'not_found');
    expectNotReached();
  });

  // The built scripts are a build artefact (packages/embed/dist): serve a directory of the test's own.
  it('serves the embed scripts to any origin, cacheable, never sniffed, framed or sent with a referrer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-embed-'));
    try {
      await writeFile(join(dir, 'v1.js'), 'export {};\n');
      const res = await request(createApp({ ...harness.deps, embedDir: dir })).get('/embed/v1.js');
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'referrer-policy': 'no-referrer',
        'cache-control': 'public, max-age=300',
      });
      expect(res.headers['content-type']).toMatch(/javascript/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('request ids', () => {
  const clientId = 'req_fromtheclient0000000000000000';

  it('are made by the gateway, whatever the client sends, and are the ones the service sees', async () => {
    const key = await keyFor();
    const first = await call('GET', '/v1/partner/restaurants', { ...key.auth, 'X-Request-Id': clientId });
    const seen = expectReached(first, 'catalog', 'GET', '/v1/partner/restaurants');
    const id = first.headers['x-request-id'];
    expect(id).toMatch(GATEWAY_REQUEST_ID);
    expect(id).not.toBe(clientId);
    expect(seen.headers['x-request-id']).toBe(id);
    expect(seen.requestId).toBe(id);
    expect(first.body.data.requestId).toBe(id);

    const second = await call('GET', '/v1/partner/restaurants', { ...key.auth, 'X-Request-Id': clientId });
    expect(second.headers['x-request-id']).toMatch(GATEWAY_REQUEST_ID);
    expect(second.headers['x-request-id']).not.toBe(id);
  });

  it('are made by the gateway on refusals too', async () => {
    const res = await call('GET', '/v1/partner/restaurants', { 'X-Request-Id': clientId });
    expectError(res, 401, 'invalid_api_key');
    expect(res.body.error.requestId).not.toBe(clientId);
  });
});

describe('proxying', () => {
  it.each([
    ['catalog', 'GET', '/v1/partner/restaurants?limit=5'],
    ['webhooks', 'GET', '/v1/partner/webhook-endpoints'],
    ['concierge', 'POST', '/v1/partner/restaurants/rst_x/concierge/chat'],
  ])(
    'hands %s the verified principal in a token for its audience, and nothing of the client’s credentials',
    async (service, method, url) => {
      const key = await keyFor({ scopes: ['menu:read', 'webhooks:manage', 'concierge:chat'] });
      const res = await call(method, url, { ...key.auth, Cookie: 'session=secret' });
      const seen = expectReached(res, service, method, url);
      const principal = {
        kind: 'key',
        keyId: key.row.id,
        keyType: 'secret',
        environment: 'live',
        scopes: ['menu:read', 'webhooks:manage', 'concierge:chat'],
        owner: { kind: 'restaurant', id: restaurant.id },
      };
      expect(seen.principal).toEqual(principal);
      expect(res.body.data).toMatchObject({ service, principal });
      expect(tokenClaims(seen.headers['x-internal-token'])).toMatchObject({ aud: service, iss: 'gateway' });
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers.cookie).toBeUndefined();
    },
  );

  it('names an integrator’s test key as such', async () => {
    const org = await harness.integrator();
    const key = await harness.issueKey(org, { environment: 'test', scopes: ['menu:read'] });
    const res = await call('GET', '/v1/partner/restaurants', key.auth);
    expect(expectReached(res, 'catalog', 'GET', '/v1/partner/restaurants').principal).toEqual({
      kind: 'key',
      keyId: key.row.id,
      keyType: 'secret',
      environment: 'test',
      scopes: ['menu:read'],
      owner: { kind: 'integrator', id: org.id },
    });
    expect(res.headers['x-service-environment']).toBe('test');
  });
});

// The shared checks of every route in the gateway's table, each against the one rule that decides it.
describe('every route of the table', () => {
  const pathOf = (route: Route) => route.pattern.replace(/:id/g, 'x1').replace('*', 'a/b');
  const withAccess = <K extends Route['access']['kind']>(kind: K) =>
    ROUTES.filter((route): route is Route & { access: Extract<Route['access'], { kind: K }> } => route.access.kind === kind).map(
      (route) => [`${route.method} ${route.pattern}`, route] as const,
    );
  /** The service's view of the request, or undefined for the route the gateway answers itself. */
  const expectRouteReached = (res: request.Response, route: Route) => {
    if (route.target.kind === 'service') return expectReached(res, route.target.service, route.method, pathOf(route));
    expect(res.status).toBe(200);
    expectNotReached();
    return undefined;
  };
  const send = (route: Route, headers?: Record<string, string>) => call(route.method, pathOf(route), headers);

  // The checks below enforce whatever the table says; this pins what it says to spec 4 and 5.3 (and
  // DESIGN.md section 4 where the spec is silent), so a route given the wrong scope, or made public,
  // cannot pass unnoticed.
  it('guards each route of the table with the key type and scope the spec gives it', () => {
    const access = ({ access }: Route) =>
      access.kind === 'secret'
        ? `secret ${access.scope ?? '(any)'}`
        : access.kind === 'embed'
          ? `embed or secret ${access.secretScope}`
          : 'public';
    expect(Object.fromEntries(ROUTES.map((route) => [`${route.method} ${route.pattern}`, access(route)]))).toEqual({
      'GET /v1/partner/me': 'secret (any)',
      'GET /v1/partner/restaurants': 'secret menu:read',
      'GET /v1/partner/restaurants/:id/items': 'secret menu:read',
      'GET /v1/partner/restaurants/:id/menu': 'secret menu:read',
      'GET /v1/partner/items/:id': 'secret assets:read',
      'POST /v1/partner/items/:id/asset-urls': 'secret assets:read',
      'GET /v1/partner/embed/items/:id': 'embed or secret assets:read',
      'GET /v1/assets/*': 'public',
      'HEAD /v1/assets/*': 'public',
      'GET /menu/:id': 'public',
      'GET /v1/partner/webhook-endpoints': 'secret webhooks:manage',
      'POST /v1/partner/webhook-endpoints': 'secret webhooks:manage',
      'GET /v1/partner/webhook-endpoints/:id': 'secret webhooks:manage',
      'PATCH /v1/partner/webhook-endpoints/:id': 'secret webhooks:manage',
      'DELETE /v1/partner/webhook-endpoints/:id': 'secret webhooks:manage',
      'POST /v1/partner/webhook-endpoints/:id/rotate-secret': 'secret webhooks:manage',
      'POST /v1/partner/webhook-endpoints/:id/recover': 'secret webhooks:manage',
      'POST /v1/partner/webhook-endpoints/:id/test': 'secret webhooks:manage',
      'GET /v1/partner/webhook-deliveries': 'secret webhooks:manage',
      'POST /v1/partner/webhook-deliveries/:id/resend': 'secret webhooks:manage',
      'POST /v1/partner/restaurants/:id/concierge/chat': 'secret concierge:chat',
      'GET /v1/partner/embed/restaurants/:id/concierge': 'embed or secret concierge:chat',
      'POST /v1/partner/embed/restaurants/:id/concierge/chat': 'embed or secret concierge:chat',
    });
  });

  describe.each(withAccess('secret'))('%s (secret key)', (_name, route) => {
    const scope = route.access.scope;

    it('needs a key', async () => {
      expectError(await send(route), 401, 'invalid_api_key');
      expectNotReached();
    });

    it('refuses a publishable key, even from an allowed origin', async () => {
      expectError(await send(route, { ...(await publishable()).auth, Origin: ORIGIN }), 403, 'forbidden_key_type');
      expectNotReached();
    });

    if (scope) {
      it('refuses a secret key holding every other scope', async () => {
        expectError(await send(route, (await keyFor({ scopes: everyScopeBut(scope) })).auth), 403, 'forbidden_scope');
        expectNotReached();
      });
    }

    it(`lets a secret key holding ${scope ? 'only its scope' : 'no scope'} through`, async () => {
      expectRouteReached(await send(route, (await keyFor({ scopes: scope ? [scope] : [] })).auth), route);
    });
  });

  describe.each(withAccess('embed'))('%s (embed)', (_name, route) => {
    const scope = route.access.secretScope;

    it('needs a key', async () => {
      expectError(await send(route, { Origin: ORIGIN }), 401, 'invalid_api_key');
      expectNotReached();
    });

    it('lets a publishable key through from an allowed origin, echoing the origin', async () => {
      const res = await send(route, { ...(await publishable()).auth, Origin: ORIGIN });
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expectRouteReached(res, route);
    });

    it.each<[string, Record<string, string>]>([
      ['an unlisted origin', { Origin: 'https://evil.example.com' }],
      ['no Origin', {}],
    ])('refuses a publishable key from %s', async (_case, origin) => {
      expectError(await send(route, { ...(await publishable()).auth, ...origin }), 403, 'origin_not_allowed');
      expectNotReached();
    });

    it('refuses a secret key without its scope, and lets one holding only that scope through', async () => {
      expectError(await send(route, (await keyFor({ scopes: everyScopeBut(scope) })).auth), 403, 'forbidden_scope');
      expectNotReached();
      expectRouteReached(await send(route, (await keyFor({ scopes: [scope] })).auth), route);
    });
  });

  describe.each(withAccess('public'))('%s (public)', (_name, route) => {
    it('reaches its service without a key, as the public principal, counted against its address alone', async () => {
      const res = await send(route);
      expect(res.headers['x-ratelimit-limit']).toBe(String(harness.config.clientLimitPerMin));
      expect(expectRouteReached(res, route)?.principal).toEqual({ kind: 'public' });
    });
  });
});

describe('CORS on embed routes', () => {
  const embedPath = '/v1/partner/embed/restaurants/rst_x/concierge';

  it('answers a preflight without a key, credentials or a service hop', async () => {
    const res = await call('OPTIONS', '/v1/partner/embed/restaurants/rst_x/concierge/chat', {
      Origin: ORIGIN,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toContain('Authorization');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expectNotReached();
  });

  it('answers no preflight on a secret-key route', async () => {
    const res = await call('OPTIONS', '/v1/partner/restaurants', { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' });
    expectError(res, 401, 'invalid_api_key');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('exposes the rate-limit and request-id headers to the page, and varies on Origin', async () => {
    const res = await call('GET', embedPath, { ...(await publishable()).auth, Origin: ORIGIN });
    expect(res.status).toBe(200);
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']),
    );
    expect(res.headers.vary).toContain('Origin');
  });

  it('echoes the origin on a refusal, so the widget can tell why', async () => {
    const res = await call('GET', embedPath, { ...(await publishable()).auth, Origin: 'https://evil.example.com' });
    expectError(res, 403, 'origin_not_allowed');
    expect(res.headers['access-control-allow-origin']).toBe('https://evil.example.com');
  });

  it('takes the origin of the Referer when a same-origin page sends no Origin', async () => {
    const res = await call('GET', embedPath, { ...(await publishable()).auth, Referer: `${ORIGIN}/menu?table=4` });
    expectReached(res, 'concierge', 'GET', embedPath);
  });
});

describe('rate limit', () => {
  // Windows follow the harness's clock, pinned 20 s into a minute: no test waits for a minute to end.
  afterEach(() => harness.unpinClock());
  const rateHeaders = (res: request.Response) => ({
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  });

  it('counts every answer to a valid key, refusals and local answers included', async () => {
    harness.pinClockInMinute(20);
    const key = await keyFor({ scopes: ['menu:read'], rateLimitPerMin: 50 });
    const answers = [
      await call('GET', '/v1/partner/restaurants', key.auth),
      await call('GET', '/v1/partner/me', key.auth),
      await call('GET', '/v1/partner/webhook-endpoints', key.auth),
      await call('GET', '/v1/partner/no-such-thing', key.auth),
      await call('DELETE', '/v1/partner/restaurants', key.auth),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 200, 403, 404, 405]);
    answers.forEach((res, index) => {
      const { limit, remaining, reset } = rateHeaders(res);
      expect({ limit, remaining }).toEqual({ limit: 50, remaining: 50 - index - 1 });
      expect(reset).toBe(40);
    });
  });

  it('answers 429 rate_limited with Retry-After past rate_limit_per_min, without reaching the service; other keys go on', async () => {
    harness.pinClockInMinute(20);
    const key = await keyFor({ rateLimitPerMin: 3 });
    for (const remaining of [2, 1, 0]) {
      const res = await call('GET', '/v1/partner/restaurants', key.auth);
      expect(res.status).toBe(200);
      expect(rateHeaders(res)).toMatchObject({ limit: 3, remaining });
    }
    harness.upstream.take();

    const refused = await call('GET', '/v1/partner/restaurants', key.auth);
    expectError(refused, 429, 'rate_limited');
    const { limit, remaining, reset } = rateHeaders(refused);
    expect({ limit, remaining }).toEqual({ limit: 3, remaining: 0 });
    expect(Number(refused.headers['retry-after'])).toBe(40);
    expect(reset).toBe(40);
    expectNotReached();

    const other = await keyFor({ rateLimitPerMin: 3 });
    expect((await call('GET', '/v1/partner/restaurants', other.auth)).status).toBe(200);
  });

  it('holds a test key to 60 a minute whatever its configured rate', async () => {
    const key = await keyFor({ environment: 'test', rateLimitPerMin: 1_000 });
    expect(rateHeaders(await call('GET', '/v1/partner/me', key.auth)).limit).toBe(60);
  });
});

describe('routing, once the key is known', () => {
  it.each([
    ['an unknown path', '/v1/partner/no-such-thing'],
    ['a known path with more after it', '/v1/partner/me/more'],
    ['an empty parameter', '/v1/partner/restaurants//items'],
  ])('answers %s with 404 not_found', async (_name, path) => {
    expectError(await call('GET', path, (await keyFor()).auth), 404, 'not_found');
    expectNotReached();
  });

  it.each([
    ['DELETE', '/v1/partner/webhook-endpoints', 'GET, HEAD, POST'],
    ['PUT', '/v1/partner/webhook-endpoints/we_x', 'GET, HEAD, PATCH, DELETE'],
    ['POST', '/v1/partner/me', 'GET, HEAD'],
    ['GET', '/v1/partner/items/itm_x/asset-urls', 'POST'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    const res = await call(method, path, (await keyFor()).auth);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe(allow);
    expectNotReached();
  });

  it.each([
    ['item detail, proxied', '/v1/partner/items/itm_x', 'catalog'],
    ['the public menu page', '/menu/rst_x', 'catalog'],
  ])('answers HEAD on a GET route (%s) as the service answers it, without a body', async (_name, path, service) => {
    const res = await call('HEAD', path, (await keyFor({ scopes: ['assets:read'] })).auth);
    expectReached(res, service, 'HEAD', path);
    expect(res.body).toEqual({});
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers HEAD /me with the headers of its GET and no body', async () => {
    const res = await call('HEAD', '/v1/partner/me', (await keyFor()).auth);
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expectNotReached();
  });

  it('refuses a suspended owner before routing', async () => {
    const suspended = await harness.restaurant({ suspended: true });
    const key = await harness.issueKey(suspended);
    expectError(await call('GET', '/v1/partner/no-such-thing', key.auth), 403, 'account_suspended');
  });
});

describe('request bodies', () => {
  const endpoints = '/v1/partner/webhook-endpoints';
  /** A JSON body of exactly `bytes` bytes. */
  const jsonOf = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });

  it('proxies a declared body of MAX_BODY_BYTES, and refuses one byte more with 413 payload_too_large', async () => {
    const key = await keyFor({ scopes: ['webhooks:manage'] });
    const limit = harness.config.maxBodyBytes;
    expect(limit).toBe(1_048_576);
    const post = (body: string) => call('POST', endpoints, { ...key.auth, 'Content-Type': 'application/json' }).send(body);

    const atLimit = await post(jsonOf(limit));
    expect(expectReached(atLimit, 'webhooks', 'POST', endpoints).headers['content-length']).toBe(String(limit));

    expectError(await post(jsonOf(limit + 1)), 413, 'payload_too_large');
    expectNotReached();
  });
});
