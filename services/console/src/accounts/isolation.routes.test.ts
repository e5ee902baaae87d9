import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPEN_ROUTES } from './console-guard.js';
import { expectError, listRoutes, type SignedIn, useAppHarness } from '../testing/app-harness.js';
import { seedIntegrator, seedItem, seedRestaurant, seedSection } from '../testing/factories.js';
import { OWNED_WEBHOOK_ROUTES } from '../webhooks/webhooks.routes.js';

// Route by route: a signed-in person reaches only the restaurants and integrator orgs they belong to.
// Another owner's restaurant, and everything under it, answers the very 404 of one that does not
// exist, and nothing of it changes. Operator-only routes answer 403 to everyone signed in.

const h = useAppHarness();

interface World {
  restaurantA: string;
  sectionA: string;
  itemA: string;
  keyA: string;
  grantA: string;
  integratorI: string;
  ownerA: SignedIn;
  integratorPerson: SignedIn;
  ownerB: SignedIn;
  restaurantB: string;
}
const w = {} as World;

beforeAll(async () => {
  const restaurantA = await seedRestaurant(h.deps, { name: 'Chez A' });
  const restaurantB = await seedRestaurant(h.deps, { name: 'Chez B' });
  const integrator = await seedIntegrator(h.deps);
  const section = await seedSection(h.deps, restaurantA.id);
  const item = await seedItem(h.deps, restaurantA.id);
  const key = await request(h.app)
    .post('/console/keys')
    .set(h.admin)
    .send({ restaurantId: restaurantA.id, type: 'secret', environment: 'live', name: 'A' });
  const link = await request(h.app).post(`/console/integrators/${integrator.id}/connect-links`).set(h.admin).send({});
  const grant = await request(h.app)
    .post(`/console/connect-links/${link.body.data.token}/approve`)
    .set(h.admin)
    .send({ restaurantId: restaurantA.id });
  Object.assign(w, {
    restaurantA: restaurantA.id,
    restaurantB: restaurantB.id,
    sectionA: section.id,
    itemA: item.id,
    keyA: key.body.data.id,
    grantA: grant.body.data.id,
    integratorI: integrator.id,
    ownerA: await h.signIn('owner-a@isolation.test', [{ owner: { kind: 'restaurant', id: restaurantA.id } }]),
    integratorPerson: await h.signIn('dev@isolation.test', [{ owner: { kind: 'integrator', id: integrator.id } }]),
    ownerB: await h.signIn('owner-b@isolation.test', [{ owner: { kind: 'restaurant', id: restaurantB.id } }]),
  });
});

interface Trespass {
  url: () => string;
  body?: () => object;
  /** What owner B gets: the owner's own 404 unless the route says otherwise. */
  status?: 400 | 403 | 404;
  /** The same route for a missing id: B's answer must be word for word the same. */
  missing?: () => string;
}

const restaurantRoutes = (path: string) => ({
  url: () => `/console/restaurants/${w.restaurantA}${path}`,
  missing: () => `/console/restaurants/rst_missing00000000${path}`,
});
const integratorRoutes = (path: string) => ({
  url: () => `/console/integrators/${w.integratorI}${path}`,
  missing: () => `/console/integrators/org_missing00000000${path}`,
});

/** Owner B, signed in, against owner A's restaurant and integrator I's org, one request per route. */
const TRESPASSES: Record<string, Trespass> = {
  'GET /console/restaurants/:id': restaurantRoutes(''),
  'PATCH /console/restaurants/:id': { ...restaurantRoutes(''), body: () => ({ houseNotes: 'mine now' }) },
  'GET /console/restaurants/:id/usage': restaurantRoutes('/usage'),
  'GET /console/restaurants/:id/preview-key': restaurantRoutes('/preview-key'),
  'POST /console/restaurants/:id/sections': { ...restaurantRoutes('/sections'), body: () => ({ name: 'Stolen' }) },
  'GET /console/restaurants/:id/sections': restaurantRoutes('/sections'),
  'GET /console/restaurants/:id/items': restaurantRoutes('/items'),
  'POST /console/restaurants/:id/items': { ...restaurantRoutes('/items'), body: () => ({ name: 'Stolen', priceCents: 1 }) },
  'GET /console/restaurants/:id/grants': restaurantRoutes('/grants'),
  'GET /console/restaurants/:id/members': restaurantRoutes('/members'),
  'POST /console/restaurants/:id/members': {
    ...restaurantRoutes('/members'),
    body: () => ({ email: 'intruder@isolation.test', role: 'owner' }),
  },
  'DELETE /console/restaurants/:id/members/:accountId': {
    url: () => `/console/restaurants/${w.restaurantA}/members/${w.ownerA.accountId}`,
    missing: () => `/console/restaurants/rst_missing00000000/members/${w.ownerA.accountId}`,
  },
  'PATCH /console/items/:id': {
    url: () => `/console/items/${w.itemA}`,
    body: () => ({ priceCents: 1 }),
    missing: () => '/console/items/itm_missing00000000',
  },
  'DELETE /console/items/:id': { url: () => `/console/items/${w.itemA}`, missing: () => '/console/items/itm_missing00000000' },
  'PUT /console/items/:id/model': {
    url: () => `/console/items/${w.itemA}/model`,
    missing: () => '/console/items/itm_missing00000000/model',
  },
  'GET /console/integrators/:id': integratorRoutes(''),
  'PATCH /console/integrators/:id': { ...integratorRoutes(''), body: () => ({ name: 'Mine' }) },
  'POST /console/integrators/:id/connect-links': { ...integratorRoutes('/connect-links'), body: () => ({}) },
  'GET /console/integrators/:id/connect-links': integratorRoutes('/connect-links'),
  'GET /console/integrators/:id/grants': integratorRoutes('/grants'),
  'GET /console/integrators/:id/members': integratorRoutes('/members'),
  'POST /console/integrators/:id/members': { ...integratorRoutes('/members'), body: () => ({ email: 'intruder@isolation.test' }) },
  'DELETE /console/integrators/:id/members/:accountId': {
    url: () => `/console/integrators/${w.integratorI}/members/${w.integratorPerson.accountId}`,
    missing: () => `/console/integrators/org_missing00000000/members/${w.integratorPerson.accountId}`,
  },
  'POST /console/grants/:id/revoke': {
    url: () => `/console/grants/${w.grantA}/revoke`,
    missing: () => '/console/grants/grt_missing00000000/revoke',
  },
  'POST /console/keys': {
    url: () => '/console/keys',
    body: () => ({ restaurantId: w.restaurantA, type: 'secret', environment: 'live', name: 'stolen' }),
  },
  'GET /console/keys': {
    url: () => `/console/keys?restaurantId=${w.restaurantA}`,
    missing: () => '/console/keys?restaurantId=rst_missing00000000',
  },
  'POST /console/keys/:id/revoke': {
    url: () => `/console/keys/${w.keyA}/revoke`,
    missing: () => '/console/keys/key_missing00000000/revoke',
  },
  // Consent is given for a restaurant of one's own: another's is refused as an unknown restaurantId.
  'POST /console/connect-links/:token/approve': {
    url: () => '/console/connect-links/cl_whatever/approve',
    body: () => ({ restaurantId: w.restaurantA }),
    status: 400,
  },
  // The platform's, not an owner's.
  'POST /console/restaurants': { url: () => '/console/restaurants', body: () => ({ name: 'Mine', slug: 'mine-isolation' }), status: 403 },
  'POST /console/integrators': { url: () => '/console/integrators', body: () => ({ name: 'Mine', slug: 'mine-isolation' }), status: 403 },
  'PUT /console/platform/kill-switch': { url: () => '/console/platform/kill-switch', body: () => ({ concierge: true }), status: 403 },
  'GET /console/audit-events': { url: () => '/console/audit-events', status: 403 },
  'GET /console/webhook-deliveries': { url: () => '/console/webhook-deliveries', status: 403 },
  'GET /console/webhook-deliveries/:id': { url: () => '/console/webhook-deliveries/whd_x', status: 403 },
  'POST /console/webhook-deliveries/:id/resend': { url: () => '/console/webhook-deliveries/whd_x/resend', status: 403 },
  'POST /console/webhook-endpoints/:id/enable': { url: () => '/console/webhook-endpoints/we_x/enable', status: 403 },
  'POST /console/webhook-endpoints/:id/recover': {
    url: () => '/console/webhook-endpoints/we_x/recover',
    body: () => ({ since: '2026-11-20T00:00:00Z' }),
    status: 403,
  },
  ...Object.fromEntries(
    OWNED_WEBHOOK_ROUTES.flatMap(([method, path]) =>
      (['restaurants', 'integrators'] as const).map((segment) => {
        const owner = () => (segment === 'restaurants' ? w.restaurantA : w.integratorI);
        const concrete = path.replace(':id', 'we_x');
        const trespass: Trespass = {
          url: () => `/console/${segment}/${owner()}/${concrete}`,
          missing: () => `/console/${segment}/${segment === 'restaurants' ? 'rst' : 'org'}_missing00000000/${concrete}`,
          body: method === 'POST' || method === 'PATCH' ? () => ({ url: 'https://hooks.example.com/x' }) : undefined,
        };
        return [`${method} /console/${segment}/:ownerId/${path}`, trespass];
      }),
    ),
  ),
};

/** Routes about the caller alone, or open to any signed-in person: nobody else's data to reach. */
const SELF = new Set([
  'GET /healthz',
  ...OPEN_ROUTES,
  'DELETE /console/session',
  'POST /console/session/sign-out-everywhere',
  'PUT /console/account/password',
  // Lists: checked below to list the caller's own only.
  'GET /console/restaurants',
  'GET /console/integrators',
  // The token is the secret: whoever holds it may see who asks for what.
  'GET /console/connect-links/:token',
  'GET /console/platform/kill-switch',
]);

const send = (method: string, url: string, headers: Record<string, string>, body?: object) => {
  const req = request(h.app)[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url).set(headers);
  return body ? req.send(body) : req;
};

/** Owner A's rows, to prove that nothing B sent changed them. */
async function snapshotOfA() {
  const db = h.deps.db;
  return {
    restaurant: await db.selectFrom('restaurants').selectAll().where('id', '=', w.restaurantA).executeTakeFirstOrThrow(),
    sections: await db.selectFrom('sections').selectAll().where('restaurant_id', '=', w.restaurantA).execute(),
    items: await db.selectFrom('items').selectAll().where('restaurant_id', '=', w.restaurantA).execute(),
    keys: await db.selectFrom('api_keys').selectAll().where('restaurant_id', '=', w.restaurantA).execute(),
    grants: await db.selectFrom('grants').selectAll().where('restaurant_id', '=', w.restaurantA).execute(),
    links: await db.selectFrom('connect_links').selectAll().where('integrator_org_id', '=', w.integratorI).execute(),
    members: await db
      .selectFrom('memberships')
      .selectAll()
      .where((eb) => eb.or([eb('restaurant_id', '=', w.restaurantA), eb('integrator_org_id', '=', w.integratorI)]))
      .execute(),
    integrator: await db.selectFrom('integrator_orgs').selectAll().where('id', '=', w.integratorI).executeTakeFirstOrThrow(),
  };
}

describe('a second owner, signed in', () => {
  it('is checked on every route console serves', () => {
    const served = listRoutes(h.app).map(({ method, path }) => `${method} ${path}`);
    expect(served.filter((route) => !SELF.has(route)).sort()).toEqual(Object.keys(TRESPASSES).sort());
  });

  it("reaches nothing of another owner's, told apart from nothing that does not exist, and changes nothing", async () => {
    const before = await snapshotOfA();
    for (const [route, trespass] of Object.entries(TRESPASSES)) {
      const method = route.split(' ')[0]!;
      const res = await send(method, trespass.url(), w.ownerB.headers, trespass.body?.());
      const status = trespass.status ?? 404;
      expect.soft(res.status, route).toBe(status);
      expectError(res, status, status === 404 ? 'not_found' : status === 400 ? 'invalid_request' : 'forbidden');
      if (trespass.missing) {
        const missing = await send(method, trespass.missing(), w.ownerB.headers, trespass.body?.());
        expect.soft(missing.status, `${route} (missing)`).toBe(res.status);
        expect.soft(missing.body.error?.message, `${route} (missing)`).toBe(res.body.error?.message);
      }
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it('lists only its own restaurants and no integrator', async () => {
    const restaurants = await send('GET', '/console/restaurants', w.ownerB.headers);
    expect(restaurants.body.data.map((r: { id: string }) => r.id)).toEqual([w.restaurantB]);
    expect((await send('GET', '/console/integrators', w.ownerB.headers)).body.data).toEqual([]);
    expect((await send('GET', '/console/restaurants', w.integratorPerson.headers)).body.data).toEqual([]);
    expect((await send('GET', '/console/integrators', w.integratorPerson.headers)).body.data.map((o: { id: string }) => o.id)).toEqual([
      w.integratorI,
    ]);
  });

  it('may not set the plan of its own restaurant', async () => {
    const res = await send('PATCH', `/console/restaurants/${w.restaurantB}`, w.ownerB.headers, { monthlyQuota: 10_000_000 });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.param).toBe('monthlyQuota');
  });
});

describe('the first owner and the integrator', () => {
  it('reach what is theirs on the same routes', async () => {
    const ok = async (method: string, url: string, who: SignedIn, body?: object) => {
      const res = await send(method, url, who.headers, body);
      expect.soft(res.status, `${method} ${url}`).toBeLessThan(300);
      return res;
    };
    await ok('GET', `/console/restaurants/${w.restaurantA}`, w.ownerA);
    await ok('GET', `/console/restaurants/${w.restaurantA}/items`, w.ownerA);
    await ok('PATCH', `/console/items/${w.itemA}`, w.ownerA, { description: 'Made this morning' });
    await ok('GET', `/console/keys?restaurantId=${w.restaurantA}`, w.ownerA);
    await ok('GET', `/console/restaurants/${w.restaurantA}/members`, w.ownerA);
    // A grant is both sides': the integrator sees it too.
    const grants = await ok('GET', `/console/integrators/${w.integratorI}/grants`, w.integratorPerson);
    expect(grants.body.data.map((g: { id: string }) => g.id)).toContain(w.grantA);
    await ok('POST', `/console/integrators/${w.integratorI}/connect-links`, w.integratorPerson, {});
    // The integrator's person cannot reach the restaurant through the grant.
    expectError(await send('GET', `/console/restaurants/${w.restaurantA}`, w.integratorPerson.headers), 404, 'not_found');
  });

  it("forwards an owner's webhook routes to the webhooks service for that owner (down here: 503, never a leak)", async () => {
    const res = await send('GET', `/console/restaurants/${w.restaurantA}/webhook-endpoints`, w.ownerA.headers);
    expectError(res, 503, 'service_unavailable');
  });
});
