import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '@partner/gateway';
import { expectError } from './expect-error.js';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';

// The shared checks, generated from the gateway's route table: a route added to the table is covered
// the day it is added (no key, wrong key type, missing scope, wrong origin, another owner's resource).

const ALL_SCOPES = ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'];
const ORIGIN = 'https://shop.example.com';
const keyed = ROUTES.filter((route) => route.access.kind !== 'public');
const secretRoutes = keyed.filter((route) => route.access.kind === 'secret');
const scoped = secretRoutes.filter((route) => route.access.kind === 'secret' && route.access.scope !== null);
const embedRoutes = keyed.filter((route) => route.access.kind === 'embed');
const withId = keyed.filter((route) => route.pattern.includes(':id'));

const label = (route: Route) => `${route.method} ${route.pattern}`;
const neededScope = (route: Route) =>
  route.access.kind === 'secret' ? route.access.scope! : route.access.kind === 'embed' ? route.access.secretScope : null;

/** The id prefix a `:id` takes, from the collection it follows (`/items/:id` is an item id). */
const PREFIX: Record<string, string> = { restaurants: 'rst', items: 'itm', 'webhook-endpoints': 'we', 'webhook-deliveries': 'whd' };

function pathFor(route: Route, ids: Record<string, string> = {}): string {
  const parts = route.pattern.split('/');
  return parts
    .map((part, index) => {
      if (part !== ':id') return part;
      const prefix = PREFIX[parts[index - 1]!];
      if (!prefix) throw new Error(`no id prefix known for ${route.pattern}: add it to PREFIX`);
      return ids[prefix] ?? `${prefix}_doesnotexist000000000000`;
    })
    .join('/');
}

/** A valid body for the routes that validate one before looking the resource up. */
const VALID_BODY: Record<string, object> = {
  'PATCH /v1/partner/webhook-endpoints/:id': { description: 'renamed' },
  'POST /v1/partner/webhook-endpoints': { url: 'https://93.184.215.14/hooks', enabledEvents: ['*'] },
  'POST /v1/partner/restaurants/:id/concierge/chat': { message: 'Anything with salmon?' },
  'POST /v1/partner/embed/restaurants/:id/concierge/chat': { message: 'Anything with salmon?' },
};

function call(route: Route, path: string, headers: Record<string, string>) {
  const verb = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  const req = request(stack.gatewayUrl)[verb](path).set(headers);
  const body = VALID_BODY[label(route)];
  return body ? req.send(body) : req;
}

let stack: Stack;
/** Another owner's restaurant, with one of everything a route can address. */
let theirs: Record<string, string>;
beforeAll(async () => {
  stack = await startStack();
  const other = await restaurantWithKey(stack);
  const item = await stack.console.createItem(other.restaurant.id, { name: 'Their dish', priceCents: 900, status: 'published' });
  await stack.console.uploadModel(item.id, await sampleModelFiles());
  const endpoint = await request(stack.gatewayUrl)
    .post('/v1/partner/webhook-endpoints')
    .set(other.auth)
    .send({ url: 'https://93.184.215.14/theirs', enabledEvents: ['*'] });
  expect(endpoint.body).toMatchObject({ data: { id: expect.any(String) } });
  const delivery = 'whd_theirs0000000000000000000';
  await stack.db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery,
      event_id: 'evt_theirs',
      event_type: 'item.created',
      endpoint_id: endpoint.body.data.id,
      attempt: 1,
      status: 'failed',
    })
    .execute();
  theirs = { rst: other.restaurant.id, itm: item.id, we: endpoint.body.data.id, whd: delivery };
}, 60_000);
afterAll(() => stack.stop());

it('every keyed route is covered by these checks', () => {
  expect(keyed.length).toBeGreaterThan(15);
  for (const route of withId) expect(() => pathFor(route)).not.toThrow();
});

describe.each(keyed.map((route) => [label(route), route] as const))('%s', (_label, route) => {
  it('refuses a request without a key (401 invalid_api_key)', async () => {
    expectError(await call(route, pathFor(route), {}), 401, 'invalid_api_key');
  });
});

describe.each(secretRoutes.map((route) => [label(route), route] as const))('%s', (_label, route) => {
  it('refuses a publishable key (403 forbidden_key_type)', async () => {
    const { auth } = await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: [ORIGIN] });
    expectError(await call(route, pathFor(route), { ...auth, Origin: ORIGIN }), 403, 'forbidden_key_type');
  });
});

describe.each([...scoped, ...embedRoutes].map((route) => [label(route), route] as const))('%s', (_label, route) => {
  it('refuses a secret key without its scope, and lets one with only that scope past the gateway', async () => {
    const scope = neededScope(route)!;
    const without = await restaurantWithKey(stack, { scopes: ALL_SCOPES.filter((other) => other !== scope) });
    const refused = await call(route, pathFor(route), without.auth);
    expectError(refused, 403, 'forbidden_scope');
    expect(refused.body.error.message).toContain(scope);

    const only = await restaurantWithKey(stack, { scopes: [scope] });
    const passed = await call(route, pathFor(route), only.auth);
    // Past the gateway the service answers for a missing resource or an empty body: never an auth error, never a 5xx.
    expect([200, 201, 400, 404]).toContain(passed.status);
    if (passed.status >= 400) expect(['not_found', 'invalid_request']).toContain(passed.body.error.code);
  });
});

describe.each(embedRoutes.map((route) => [label(route), route] as const))('%s', (_label, route) => {
  it('refuses a publishable key from an origin not on its list (403 origin_not_allowed)', async () => {
    const { auth } = await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: [ORIGIN] });
    expectError(await call(route, pathFor(route), { ...auth, Origin: 'https://evil.example' }), 403, 'origin_not_allowed');
    expectError(await call(route, pathFor(route), auth), 403, 'origin_not_allowed');
  });
});

describe.each(withId.map((route) => [label(route), route] as const))('%s', (_label, route) => {
  it("answers for another owner's resource exactly as for a missing one", async () => {
    const mine =
      route.access.kind === 'embed'
        ? await restaurantWithKey(stack, { type: 'publishable', allowedOrigins: [ORIGIN] })
        : await restaurantWithKey(stack);
    const headers = route.access.kind === 'embed' ? { ...mine.auth, Origin: ORIGIN } : mine.auth;
    const foreign = await call(route, pathFor(route, theirs), headers);
    const missing = await call(route, pathFor(route), headers);
    const shape = (res: typeof foreign) => ({
      status: res.status,
      error: res.body.error && { ...res.body.error, requestId: 'req' },
      data: res.body.data,
    });
    expect(shape(foreign)).toEqual(shape(missing));
    // Not servable is said without data: 404 not_found, or the bootstrap's documented `enabled: false`.
    if (foreign.status === 200) expect(foreign.body).toEqual({ data: { enabled: false } });
    else expectError(foreign, 404, 'not_found');
  });
});
