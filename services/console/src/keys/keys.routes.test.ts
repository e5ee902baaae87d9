import { createHash } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { zData } from '@partner/contracts';
import { ZConsoleKey, ZCreatedKey } from '@partner/contracts/console';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { seedIntegrator, seedRestaurant } from '../testing/factories.js';
import { MAX_TEST_KEYS_PER_OWNER } from './keys.service.js';

const h = useAppHarness();

const createKey = (body: Record<string, unknown>) => request(h.app).post('/console/keys').set(h.admin).send(body);
const revoke = (id: string) => request(h.app).post(`/console/keys/${id}/revoke`).set(h.admin);
const keyRow = (id: string) => h.deps.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /console/keys', () => {
  it('returns the plaintext once and stores only its SHA-256', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const res = await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'POS' });
    expect(res.status).toBe(201);
    const key = zData(ZCreatedKey).parse(res.body).data;
    expect(key.value).toMatch(/^svc_sk_live_[0-9A-Za-z]{38}$/);
    expect(key).toMatchObject({
      restaurantId: restaurant.id,
      integratorOrgId: null,
      type: 'secret',
      environment: 'live',
      scopes: ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'],
      rateLimitPerMin: 600,
      allowedOrigins: [],
      redacted: `svc_sk_live_…${key.value.slice(-4)}`,
      revokedAt: null,
    });

    const row = await keyRow(key.id);
    expect(row.key_hash).toBe(createHash('sha256').update(key.value).digest('hex'));
    const secretPart = key.value.slice('svc_sk_live_'.length, -4);
    expect(JSON.stringify(row)).not.toContain(secretPart);

    const listed = await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(secretPart);
    const mine = listed.body.data.find((listedKey: { id: string }) => listedKey.id === key.id);
    const { value: _value, ...metadata } = key;
    expect(ZConsoleKey.strict().parse(mine)).toEqual({ ...metadata, lastUsedAt: null, managedBy: null });
  });

  it('creates a publishable key for an integrator with its origins and no scopes; test keys default to 60/min', async () => {
    const integrator = await seedIntegrator(h.deps);
    const origins = ['https://shop.example.com', 'https://*.example.com'];
    const res = await createKey({
      integratorOrgId: integrator.id,
      type: 'publishable',
      environment: 'test',
      name: 'web',
      allowedOrigins: origins,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      integratorOrgId: integrator.id,
      restaurantId: null,
      scopes: [],
      allowedOrigins: origins,
      rateLimitPerMin: 60,
    });
    expect(res.body.data.value).toMatch(/^svc_pk_test_/);
    expect(await keyRow(res.body.data.id)).toMatchObject({
      integrator_org_id: integrator.id,
      allowed_origins: origins,
      rate_limit_per_min: 60,
    });
  });

  it('keeps the scopes, rate limit and expiry it is given', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await createKey({
      restaurantId: restaurant.id,
      type: 'secret',
      environment: 'live',
      name: 'read only',
      scopes: ['menu:read'],
      rateLimitPerMin: 30,
      expiresAt,
    });
    expect(res.body.data).toMatchObject({ scopes: ['menu:read'], rateLimitPerMin: 30, expiresAt });
    expect((await keyRow(res.body.data.id)).expires_at?.toISOString()).toBe(expiresAt);
  });

  it("gives a test key the fixed 60 a minute, whatever rate it is asked for (the gateway's cap)", async () => {
    const restaurant = await seedRestaurant(h.deps);
    const res = await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'slow', rateLimitPerMin: 10 });
    expect(res.body.data).toMatchObject({ environment: 'test', rateLimitPerMin: 60 });
    expect((await keyRow(res.body.data.id)).rate_limit_per_min).toBe(60);
  });

  it.each([
    ['no owner', { type: 'secret', environment: 'live', name: 'x' }, 'restaurantId'],
    ['two owners', { restaurantId: 'rst_a1', integratorOrgId: 'org_a1', type: 'secret', environment: 'live', name: 'x' }, 'restaurantId'],
    ['an unknown type', { restaurantId: 'rst_a1', type: 'admin', environment: 'live', name: 'x' }, 'type'],
    ['an unknown scope', { restaurantId: 'rst_a1', type: 'secret', environment: 'live', name: 'x', scopes: ['everything'] }, 'scopes.0'],
    [
      'a publishable key without origins',
      { restaurantId: 'rst_a1', type: 'publishable', environment: 'live', name: 'x' },
      'allowedOrigins',
    ],
    [
      'a publishable key with scopes',
      {
        restaurantId: 'rst_a1',
        type: 'publishable',
        environment: 'live',
        name: 'x',
        scopes: ['menu:read'],
        allowedOrigins: ['https://a.test'],
      },
      'scopes',
    ],
    [
      'a secret key with origins',
      { restaurantId: 'rst_a1', type: 'secret', environment: 'live', name: 'x', allowedOrigins: ['https://a.test'] },
      'allowedOrigins',
    ],
    ['an unknown restaurant', { restaurantId: 'rst_unknown000000', type: 'secret', environment: 'live', name: 'x' }, 'restaurantId'],
    ['an unknown integrator', { integratorOrgId: 'org_unknown000000', type: 'secret', environment: 'live', name: 'x' }, 'integratorOrgId'],
  ])('refuses %s with 400 invalid_request naming the field', async (_name, body, param) => {
    expectError(await createKey(body), 400, 'invalid_request', param);
  });

  it('refuses an expiry in the past, by the service clock', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const soon = new Date(Date.now() + 60_000).toISOString();
    h.clock.advance(120_000);
    const res = await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'x', expiresAt: soon });
    expectError(res, 400, 'invalid_request', 'expiresAt');
    expect(
      await h.deps.db.selectFrom('api_keys').select('id').where('name', '=', 'x').where('restaurant_id', '=', restaurant.id).execute(),
    ).toEqual([]);
  });
});

describe('publishable keys on public suffixes', () => {
  it('refuses a wildcard origin on a public suffix (https://*.co.uk), storing nothing', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const body = { restaurantId: restaurant.id, type: 'publishable', environment: 'live', name: 'too broad' };
    expectError(
      await createKey({ ...body, allowedOrigins: ['https://shop.example.com', 'https://*.co.uk'] }),
      400,
      'invalid_request',
      'allowedOrigins',
    );
    expect(await h.deps.db.selectFrom('api_keys').select('id').where('name', '=', 'too broad').execute()).toEqual([]);
    expect((await createKey({ ...body, allowedOrigins: ['https://*.example.co.uk'] })).status).toBe(201);
  });
});

describe('test keys', () => {
  it(`are capped at ${MAX_TEST_KEYS_PER_OWNER} active ones per owner (409 key_limit_reached), also under concurrency; revoking frees a place`, async () => {
    const restaurant = await seedRestaurant(h.deps);
    const body = { restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'many' };
    // The keys the platform manages (the dashboard's preview key, a test menu page key) are not the owner's to count.
    await request(h.app).get(`/console/restaurants/${restaurant.id}/preview-key`).set(h.admin).expect(200);
    const answers = await Promise.all(Array.from({ length: MAX_TEST_KEYS_PER_OWNER + 5 }, () => createKey(body)));
    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(MAX_TEST_KEYS_PER_OWNER);
    for (const res of answers.filter((one) => one.status !== 201)) expectError(res, 409, 'key_limit_reached');
    expect((await createKey({ ...body, environment: 'live' })).status).toBe(201);

    await request(h.app).post(`/console/keys/${created[0]!.body.data.id}/revoke`).set(h.admin).expect(200);
    expect((await createKey(body)).status).toBe(201);
  });
});

describe('GET /console/keys', () => {
  it("lists one owner's keys, newest first, and needs an owner", async () => {
    const restaurant = await seedRestaurant(h.deps);
    const other = await seedRestaurant(h.deps);
    const first = await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'first' });
    const second = await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'second' });
    await createKey({ restaurantId: other.id, type: 'secret', environment: 'test', name: 'theirs' });

    const listed = await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin);
    // The restaurant's own public menu page key was made with it.
    expect(listed.body.data.map((key: { name: string }) => key.name)).toEqual(['second', 'first', 'Public menu page']);
    expect(listed.body.data[0].id).toBe(second.body.data.id);
    expect(listed.body.data[1].id).toBe(first.body.data.id);

    expectError(await request(h.app).get('/console/keys').set(h.admin), 400, 'invalid_request', 'restaurantId');
    expectError(
      await request(h.app).get('/console/keys').query({ restaurantId: 'org_x1' }).set(h.admin),
      400,
      'invalid_request',
      'restaurantId',
    );
    expectError(
      await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id, integratorOrgId: 'org_x1' }).set(h.admin),
      400,
      'invalid_request',
      'integratorOrgId',
    );
  });
});

describe('POST /console/keys/:id/revoke', () => {
  it('revokes the key, tells every gateway replica, and is idempotent', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const key = (await createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'POS' })).body.data;
    const invalidations = await h.subscribe('keys:invalidate');

    const res = await revoke(key.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
    expect(res.body.data.value).toBeUndefined();
    expect((await keyRow(key.id)).revoked_at?.toISOString()).toBe(res.body.data.revokedAt);
    expect(await invalidations.drain()).toEqual([{ keyId: key.id }]);

    h.clock.advance(60_000);
    const again = await revoke(key.id);
    expect(again.status).toBe(200);
    expect(again.body.data.revokedAt).toBe(res.body.data.revokedAt);
    // Sent again: the first revocation's message may be the one that was lost.
    expect(await invalidations.drain()).toEqual([{ keyId: key.id }]);
  });

  it('answers 404 for an unknown key, telling no one', async () => {
    const invalidations = await h.subscribe('keys:invalidate');
    expectError(await revoke('key_unknown000000'), 404, 'not_found');
    expect(await invalidations.drain()).toEqual([]);
  });
});

describe('GET /console/restaurants/:id/preview-key', () => {
  it("derives the dashboard's publishable test key for the dashboard's origin, once, and sets a revoked one right", async () => {
    const restaurant = await seedRestaurant(h.deps);
    const first = await request(h.app).get(`/console/restaurants/${restaurant.id}/preview-key`).set(h.admin);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ key: expect.stringMatching(/^svc_pk_test_/), origin: 'http://dashboard.test' });
    const again = await request(h.app).get(`/console/restaurants/${restaurant.id}/preview-key`).set(h.admin);
    expect(again.body.data.key).toBe(first.body.data.key);

    const listed = (await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(h.admin)).body.data;
    const preview = listed.find((key: { managedBy: string | null }) => key.managedBy === 'dashboard-preview');
    expect(preview).toMatchObject({ type: 'publishable', environment: 'test', allowedOrigins: ['http://dashboard.test'], revokedAt: null });
    expect(listed.filter((key: { managedBy: string | null }) => key.managedBy === 'menu-page')).toHaveLength(1);
    expect(listed.filter((key: { managedBy: string | null }) => key.managedBy === null)).toHaveLength(0);

    await revoke(preview.id).expect(200);
    await request(h.app).get(`/console/restaurants/${restaurant.id}/preview-key`).set(h.admin).expect(200);
    expect((await keyRow(preview.id)).revoked_at).toBeNull();
    expectError(await request(h.app).get('/console/restaurants/rst_missing000000000000/preview-key').set(h.admin), 404, 'not_found');
  });
});

describe('keys the platform manages', () => {
  it('are not revoked by an owner: the menu page or the previews would break', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const owner = await h.signIn(`owner-${restaurant.id}@keys.test`, [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    await request(h.app).get(`/console/restaurants/${restaurant.id}/preview-key`).set(owner.headers).expect(200);
    const listed = (await request(h.app).get('/console/keys').query({ restaurantId: restaurant.id }).set(owner.headers)).body.data;
    for (const key of listed as Array<{ id: string; managedBy: string }>) {
      expectError(await request(h.app).post(`/console/keys/${key.id}/revoke`).set(owner.headers), 409, 'conflict');
      expect((await keyRow(key.id)).revoked_at, key.managedBy).toBeNull();
    }
    expect(listed).toHaveLength(2);
  });
});
