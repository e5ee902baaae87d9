import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '@partner/auth';
import { ZItem, zData } from '@partner/contracts';
import { ZConsoleRestaurant, ZCreatedKey } from '@partner/contracts/console';
import { expectError } from './expect-error.js';
import { grantAccess, integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';

let stack: Stack;
let admin: Record<string, string>;
beforeAll(async () => {
  stack = await startStack();
  admin = { Authorization: `Bearer ${stack.adminToken}` };
});
afterAll(() => stack.stop());

const consoleApi = () => request(stack.consoleUrl);

describe('console authentication', () => {
  it.each([
    ['no header', {}],
    ['a wrong token', { Authorization: 'Bearer adm_wrong' }],
    ['a partner key', { Authorization: 'Bearer svc_sk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }],
  ])('refuses %s with 401', async (_name, headers) => {
    expectError(await consoleApi().post('/console/restaurants').set(headers).send({ name: 'x', slug: 'x' }), 401, 'unauthorized');
  });

  it('answers health checks without a token', async () => {
    expect((await consoleApi().get('/healthz')).status).toBe(200);
  });
});

describe('restaurants', () => {
  it('creates, reads and updates every setting', async () => {
    const created = await consoleApi()
      .post('/console/restaurants')
      .set(admin)
      .send({ name: 'Chez Test', slug: 'chez-test', currency: 'EUR' });
    expect(created.status).toBe(201);
    const restaurant = zData(ZConsoleRestaurant).parse(created.body).data;
    expect(restaurant).toMatchObject({ subscriptionStatus: 'active', partnerApiAddon: true, suspended: false, conciergeEnabled: false });

    const patch = {
      subscriptionStatus: 'lapsed',
      partnerApiAddon: false,
      conciergeAddon: true,
      conciergeEnabled: true,
      suspended: true,
      monthlyQuota: 50_000,
      overageBudget: 1_000,
      conciergeAllowance: 200,
      concierge: { displayName: 'Chez Bot', welcomeMessage: 'Bonjour!' },
      houseNotes: 'Closed Mondays.',
    };
    const updated = await consoleApi().patch(`/console/restaurants/${restaurant.id}`).set(admin).send(patch);
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject(patch);
    expect((await consoleApi().get(`/console/restaurants/${restaurant.id}`).set(admin)).body.data).toMatchObject(patch);
  });

  it('refuses a duplicate slug with 409 conflict', async () => {
    await consoleApi().post('/console/restaurants').set(admin).send({ name: 'A', slug: 'dup-slug' });
    const res = await consoleApi().post('/console/restaurants').set(admin).send({ name: 'B', slug: 'dup-slug' });
    expectError(res, 409, 'conflict');
    expect(res.body.error.param).toBe('slug');
  });

  it.each([
    ['missing name', { slug: 'a' }, 'name'],
    ['bad slug', { name: 'A', slug: 'Not A Slug' }, 'slug'],
    ['bad currency', { name: 'A', slug: 'a-b', currency: 'euro' }, 'currency'],
    ['unknown field', { name: 'A', slug: 'a-c', owner: 'me' }, 'owner'],
  ])('refuses %s with 400 invalid_request naming the field', async (_name, body, param) => {
    const res = await consoleApi().post('/console/restaurants').set(admin).send(body);
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.param).toBe(param);
  });

  it('refuses bad JSON, other content types and oversized bodies in the envelope', async () => {
    expectError(
      await consoleApi().post('/console/restaurants').set(admin).set('Content-Type', 'application/json').send('{"name":'),
      400,
      'invalid_request',
    );
    expectError(
      await consoleApi().post('/console/restaurants').set(admin).set('Content-Type', 'text/plain').send('name=x'),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify({ name: 'x', slug: 'x', houseNotes: 'x'.repeat(1_100_000) });
    expectError(
      await consoleApi().post('/console/restaurants').set(admin).set('Content-Type', 'application/json').send(huge),
      413,
      'payload_too_large',
    );
    expectError(await consoleApi().patch('/console/restaurants/rst_nope').set(admin).send({ suspended: true }), 404, 'not_found');
    expectError(await consoleApi().get('/console/nothing').set(admin), 404, 'not_found');
  });
});

describe('sections and items', () => {
  it('creates, updates and deletes items, leaving a tombstone row', async () => {
    const { restaurant } = await restaurantWithKey(stack);
    const section = (await consoleApi().post(`/console/restaurants/${restaurant.id}/sections`).set(admin).send({ name: 'Mains' })).body
      .data;
    const created = await consoleApi()
      .post(`/console/restaurants/${restaurant.id}/items`)
      .set(admin)
      .send({ name: 'Crème Brûlée', priceCents: 950, sectionId: section.id, allergens: ['milk', 'eggs'] });
    expect(created.status).toBe(201);
    const item = zData(ZItem).parse(created.body).data;
    expect(item).toMatchObject({
      slug: 'creme-brulee',
      priceCents: 950,
      price: 9.5,
      currency: 'EUR',
      status: 'published',
      sectionId: section.id,
    });

    const updated = await consoleApi().patch(`/console/items/${item.id}`).set(admin).send({ priceCents: 1050, status: 'draft' });
    expect(updated.body.data).toMatchObject({ priceCents: 1050, status: 'draft' });
    expect(new Date(updated.body.data.updatedAt) >= new Date(item.updatedAt)).toBe(true);

    expect((await consoleApi().delete(`/console/items/${item.id}`).set(admin)).body.data).toEqual({ id: item.id, deleted: true });
    expectError(await consoleApi().patch(`/console/items/${item.id}`).set(admin).send({ priceCents: 1 }), 404, 'not_found');
    expectError(await consoleApi().delete(`/console/items/${item.id}`).set(admin), 404, 'not_found');
    const row = await stack.db.selectFrom('items').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('refuses a section of another restaurant, a negative price and a taken slug', async () => {
    const a = await restaurantWithKey(stack);
    const b = await restaurantWithKey(stack);
    const foreign = (await consoleApi().post(`/console/restaurants/${b.restaurant.id}/sections`).set(admin).send({ name: 'B' })).body.data;
    const path = `/console/restaurants/${a.restaurant.id}/items`;
    expectError(await consoleApi().post(path).set(admin).send({ name: 'X', priceCents: 1, sectionId: foreign.id }), 400, 'invalid_request');
    expectError(await consoleApi().post(path).set(admin).send({ name: 'X', priceCents: -1 }), 400, 'invalid_request');
    expectError(await consoleApi().post(path).set(admin).send({ name: 'X', priceCents: 1.5 }), 400, 'invalid_request');
    await consoleApi().post(path).set(admin).send({ name: 'Soup', priceCents: 500 });
    expectError(await consoleApi().post(path).set(admin).send({ name: 'Soup', priceCents: 600 }), 409, 'conflict');
  });
});

describe('keys', () => {
  it('returns the plaintext once, stores only its hash, and lists keys redacted', async () => {
    const { restaurant } = await restaurantWithKey(stack);
    const res = await consoleApi()
      .post('/console/keys')
      .set(admin)
      .send({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'POS', scopes: ['menu:read'] });
    expect(res.status).toBe(201);
    const key = zData(ZCreatedKey).parse(res.body).data;
    expect(key.value).toMatch(/^svc_sk_live_[0-9A-Za-z]{38}$/);
    const row = await stack.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(key.value));
    expect(JSON.stringify(row)).not.toContain(key.value);

    const listed = await consoleApi().get('/console/keys').query({ restaurantId: restaurant.id }).set(admin);
    expect(JSON.stringify(listed.body)).not.toContain(key.value);
    expect(listed.body.data.find((k: { id: string }) => k.id === key.id).redacted).toBe(`svc_sk_live_…${key.value.slice(-4)}`);
  });

  it.each([
    ['no owner', { type: 'secret', environment: 'live', name: 'k' }],
    ['two owners', { restaurantId: 'rst_a', integratorOrgId: 'org_b', type: 'secret', environment: 'live', name: 'k' }],
    ['an unknown owner', { restaurantId: 'rst_doesnotexist', type: 'secret', environment: 'live', name: 'k' }],
    ['an unknown scope', { restaurantId: 'rst_a', type: 'secret', environment: 'live', name: 'k', scopes: ['admin'] }],
    [
      'a publishable key with scopes',
      {
        restaurantId: 'rst_a',
        type: 'publishable',
        environment: 'live',
        name: 'k',
        scopes: ['menu:read'],
        allowedOrigins: ['https://a.example'],
      },
    ],
    ['a publishable key without origins', { restaurantId: 'rst_a', type: 'publishable', environment: 'live', name: 'k' }],
    [
      'a bad origin',
      { restaurantId: 'rst_a', type: 'publishable', environment: 'live', name: 'k', allowedOrigins: ['https://a.example/path'] },
    ],
    ['a bare wildcard origin', { restaurantId: 'rst_a', type: 'publishable', environment: 'live', name: 'k', allowedOrigins: ['*'] }],
    ['an expiry in the past', { restaurantId: 'rst_a', type: 'secret', environment: 'live', name: 'k', expiresAt: '2020-01-01T00:00:00Z' }],
    ['a zero rate limit', { restaurantId: 'rst_a', type: 'secret', environment: 'live', name: 'k', rateLimitPerMin: 0 }],
  ])('refuses %s with 400 invalid_request', async (_name, body) => {
    const { restaurant } = await restaurantWithKey(stack);
    const withOwner = JSON.parse(JSON.stringify(body).replace('"rst_a"', `"${restaurant.id}"`));
    expectError(await consoleApi().post('/console/keys').set(admin).send(withOwner), 400, 'invalid_request');
  });

  it('revoking is idempotent and 404 for an unknown key', async () => {
    const { key } = await restaurantWithKey(stack);
    const first = await consoleApi().post(`/console/keys/${key.id}/revoke`).set(admin);
    const second = await consoleApi().post(`/console/keys/${key.id}/revoke`).set(admin);
    expect(first.body.data.revokedAt).not.toBeNull();
    expect(second.body.data.revokedAt).toBe(first.body.data.revokedAt);
    expectError(await consoleApi().post('/console/keys/key_nope/revoke').set(admin), 404, 'not_found');
  });
});

describe('connect links and grants', () => {
  it('a link is approved once into an active grant, then refused; revocation is idempotent', async () => {
    const integrator = await integratorWithKey(stack);
    const { restaurant } = await restaurantWithKey(stack);
    const link = (await consoleApi().post(`/console/integrators/${integrator.org.id}/connect-links`).set(admin).send({})).body.data;
    expect(link.url).toContain(link.token);
    const approved = await consoleApi()
      .post(`/console/connect-links/${link.token}/approve`)
      .set(admin)
      .send({ restaurantId: restaurant.id });
    expect(approved.body.data).toMatchObject({ status: 'active', restaurantId: restaurant.id, integratorOrgId: integrator.org.id });
    expectError(
      await consoleApi().post(`/console/connect-links/${link.token}/approve`).set(admin).send({ restaurantId: restaurant.id }),
      404,
      'not_found',
    );
    const grantId = approved.body.data.id;
    const revoked = await consoleApi().post(`/console/grants/${grantId}/revoke`).set(admin);
    expect(revoked.body.data.status).toBe('revoked');
    expect((await consoleApi().post(`/console/grants/${grantId}/revoke`).set(admin)).body.data.status).toBe('revoked');
    expect((await grantAccess(stack, integrator.org.id, restaurant.id)).status).toBe('active');
  });

  it('an expired link is refused', async () => {
    const integrator = await integratorWithKey(stack);
    const { restaurant } = await restaurantWithKey(stack);
    const link = (
      await consoleApi().post(`/console/integrators/${integrator.org.id}/connect-links`).set(admin).send({ expiresInSeconds: 60 })
    ).body.data;
    await stack.db
      .updateTable('connect_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expectError(
      await consoleApi().post(`/console/connect-links/${link.token}/approve`).set(admin).send({ restaurantId: restaurant.id }),
      404,
      'not_found',
    );
  });
});

describe('platform kill switch', () => {
  it('is stored and read back', async () => {
    expect((await consoleApi().put('/console/platform/kill-switch').set(admin).send({ concierge: true })).body.data).toEqual({
      concierge: true,
    });
    expect((await consoleApi().get('/console/platform/kill-switch').set(admin)).body.data).toEqual({ concierge: true });
    expectError(await consoleApi().put('/console/platform/kill-switch').set(admin).send({ concierge: 'yes' }), 400, 'invalid_request');
  });
});
