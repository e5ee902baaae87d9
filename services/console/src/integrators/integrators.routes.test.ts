import { createHash } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { zData } from '@partner/contracts';
import { ZConnectLink, ZGrant, ZIntegratorOrg } from '@partner/contracts/console';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { lastWriterOf, outboxEventsAbout, seedIntegrator, seedRestaurant } from '../testing/factories.js';

const h = useAppHarness();

const post = (path: string, body?: Record<string, unknown>) => request(h.app).post(path).set(h.admin).send(body);
const createLink = (integratorId: string, body: Record<string, unknown> = {}) =>
  post(`/console/integrators/${integratorId}/connect-links`, body);
const approve = (token: string, restaurantId: string) => post(`/console/connect-links/${token}/approve`, { restaurantId });
const revokeGrant = (id: string) => post(`/console/grants/${id}/revoke`);
const linkRow = (token: string) =>
  h.deps.db
    .selectFrom('connect_links')
    .selectAll()
    .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
    .executeTakeFirst();

/** An integrator, a restaurant, and a fresh connect link between them. */
async function linkFor(body: Record<string, unknown> = {}) {
  const integrator = await seedIntegrator(h.deps);
  const restaurant = await seedRestaurant(h.deps);
  const link = zData(ZConnectLink).parse((await createLink(integrator.id, body)).body).data;
  return { integrator, restaurant, link };
}

describe('integrators', () => {
  it('creates, reads and updates an integrator org', async () => {
    const created = await post('/console/integrators', { name: 'POS Co', slug: 'pos-co', contactEmail: 'ops@pos.test' });
    expect(created.status).toBe(201);
    const org = zData(ZIntegratorOrg).parse(created.body).data;
    expect(org).toMatchObject({ name: 'POS Co', slug: 'pos-co', suspended: false, contactEmail: 'ops@pos.test' });
    expect((await request(h.app).get(`/console/integrators/${org.id}`).set(h.admin)).body.data).toEqual(org);

    const renamed = await request(h.app)
      .patch(`/console/integrators/${org.id}`)
      .set(h.admin)
      .send({ name: 'POS Company', contactEmail: null });
    expect(renamed.body.data).toEqual({ ...org, name: 'POS Company', contactEmail: null });
    expect(
      await h.deps.db.selectFrom('integrator_orgs').select(['name', 'contact_email']).where('id', '=', org.id).executeTakeFirst(),
    ).toEqual({
      name: 'POS Company',
      contact_email: null,
    });
  });

  it('suspends an integrator and pushes the change to every gateway replica', async () => {
    const org = await seedIntegrator(h.deps);
    const keys = await h.subscribe('keys:invalidate');
    const res = await request(h.app).patch(`/console/integrators/${org.id}`).set(h.admin).send({ suspended: true });
    expect(res.status).toBe(200);
    expect(res.body.data.suspended).toBe(true);
    expect(await keys.drain()).toEqual([{ ownerId: org.id }]);
    await request(h.app).patch(`/console/integrators/${org.id}`).set(h.admin).send({ name: 'Renamed' });
    expect(await keys.drain()).toEqual([]);
  });

  it('refuses a taken slug, bad fields, and unknown orgs', async () => {
    const org = await seedIntegrator(h.deps);
    expectError(await post('/console/integrators', { name: 'Again', slug: org.slug }), 409, 'conflict', 'slug');
    expectError(await post('/console/integrators', { name: 'Bad', slug: 'Bad Slug' }), 400, 'invalid_request', 'slug');
    const patch = (id: string, body: Record<string, unknown>) => request(h.app).patch(`/console/integrators/${id}`).set(h.admin).send(body);
    expectError(await patch(org.id, { suspended: 'no' }), 400, 'invalid_request', 'suspended');
    expectError(await patch(org.id, { slug: 'other' }), 400, 'invalid_request', 'slug');
    expectError(await patch('org_unknown000000', { suspended: true }), 404, 'not_found');
    expectError(await request(h.app).get('/console/integrators/org_unknown000000').set(h.admin), 404, 'not_found');
  });
});

describe('connect links', () => {
  it('creates a link valid for 7 days with every scope by default, storing only the token hash', async () => {
    const integrator = await seedIntegrator(h.deps);
    const res = await createLink(integrator.id);
    expect(res.status).toBe(201);
    const link = zData(ZConnectLink).parse(res.body).data;
    expect(link.token).toMatch(/^cl_[0-9A-Za-z]{32}$/);
    expect(link.url).toBe(`http://dashboard.test/connect/${link.token}`);
    const lifetime = new Date(link.expiresAt).getTime() - h.deps.now().getTime();
    expect(lifetime).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 24 * 3600_000);

    const row = await linkRow(link.token);
    expect(row).toMatchObject({
      integrator_org_id: integrator.id,
      scopes: ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'],
      used_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(link.token);
  });

  it('refuses bad options and unknown integrators', async () => {
    const integrator = await seedIntegrator(h.deps);
    expectError(await createLink(integrator.id, { expiresInSeconds: 10 }), 400, 'invalid_request', 'expiresInSeconds');
    expectError(await createLink(integrator.id, { scopes: [] }), 400, 'invalid_request', 'scopes');
    expectError(await createLink('org_unknown000000'), 404, 'not_found');
  });

  it('approving creates an active grant and grant.activated in the same transaction', async () => {
    const { integrator, restaurant, link } = await linkFor({ scopes: ['menu:read'] });
    const access = await h.subscribe('access:invalidate');
    const res = await approve(link.token, restaurant.id);
    expect(res.status).toBe(200);
    const grant = zData(ZGrant).parse(res.body).data;
    expect(grant).toMatchObject({
      restaurantId: restaurant.id,
      integratorOrgId: integrator.id,
      scopes: ['menu:read'],
      status: 'active',
      revokedAt: null,
    });

    expect(await h.deps.db.selectFrom('grants').selectAll().where('id', '=', grant.id).executeTakeFirst()).toMatchObject({
      status: 'active',
    });
    expect((await linkRow(link.token))?.used_at).toBeInstanceOf(Date);
    const events = await outboxEventsAbout(h.deps.db, 'grantId', grant.id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'grant.activated',
        restaurantId: restaurant.id,
        integratorOrgId: integrator.id,
        data: { grantId: grant.id, restaurantId: restaurant.id, integratorOrgId: integrator.id },
      }),
    ]);
    expect(events[0]!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'grants', grant.id));
    expect(await access.drain()).toEqual([{ restaurantId: restaurant.id }]);

    // Listed with both sides' names.
    const named = { ...grant, restaurantName: restaurant.name, integratorName: integrator.name };
    const listed = await request(h.app).get(`/console/integrators/${integrator.id}/grants`).set(h.admin);
    expect(listed.body.data).toEqual([named]);
    expect((await request(h.app).get(`/console/restaurants/${restaurant.id}/grants`).set(h.admin)).body.data).toEqual([named]);
  });

  it('refuses a link already used, with no second grant or event', async () => {
    const { restaurant, link } = await linkFor();
    const grant = (await approve(link.token, restaurant.id)).body.data;
    expectError(await approve(link.token, restaurant.id), 404, 'not_found');
    expectError(await approve(link.token, (await seedRestaurant(h.deps)).id), 404, 'not_found');
    expect(await h.deps.db.selectFrom('grants').select('id').where('integrator_org_id', '=', grant.integratorOrgId).execute()).toEqual([
      { id: grant.id },
    ]);
    expect(await outboxEventsAbout(h.deps.db, 'grantId', grant.id)).toHaveLength(1);
  });

  it('refuses an expired link, by the service clock', async () => {
    const { restaurant, link } = await linkFor({ expiresInSeconds: 60 });
    h.clock.advance(61_000);
    expectError(await approve(link.token, restaurant.id), 404, 'not_found');
    expect((await linkRow(link.token))?.used_at).toBeNull();
    expect(await h.deps.db.selectFrom('grants').select('id').where('restaurant_id', '=', restaurant.id).execute()).toEqual([]);
  });

  it('refuses an unknown token, and an unknown restaurant without spending the link', async () => {
    const { restaurant, link } = await linkFor();
    expectError(await approve('cl_doesnotexist', restaurant.id), 404, 'not_found');
    expectError(await approve(link.token, 'rst_unknown000000'), 400, 'invalid_request', 'restaurantId');
    expect((await linkRow(link.token))?.used_at).toBeNull();
    expect((await approve(link.token, restaurant.id)).status).toBe(200);
  });

  it('a second link for a connected restaurant widens the active grant, without another grant.activated', async () => {
    const { integrator, restaurant, link } = await linkFor({ scopes: ['menu:read'] });
    const first = (await approve(link.token, restaurant.id)).body.data;
    const second = zData(ZConnectLink).parse((await createLink(integrator.id, { scopes: ['assets:read'] })).body).data;
    const widened = await approve(second.token, restaurant.id);
    expect(widened.body.data).toMatchObject({ id: first.id, status: 'active', scopes: ['menu:read', 'assets:read'] });
    expect((await outboxEventsAbout(h.deps.db, 'grantId', first.id)).map((event) => event.type)).toEqual(['grant.activated']);
  });
});

describe('two links of one integrator approved at once for one restaurant', () => {
  it('make one grant with both links’ scopes, and one grant.activated', async () => {
    for (let round = 0; round < 5; round++) {
      const { integrator, restaurant, link } = await linkFor({ scopes: ['menu:read'] });
      const other = zData(ZConnectLink).parse((await createLink(integrator.id, { scopes: ['assets:read'] })).body).data;
      const answers = await Promise.all([approve(link.token, restaurant.id), approve(other.token, restaurant.id)]);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
      const grants = await h.deps.db.selectFrom('grants').selectAll().where('restaurant_id', '=', restaurant.id).execute();
      expect(grants.map((grant) => [grant.status, [...grant.scopes].sort()])).toEqual([['active', ['assets:read', 'menu:read']]]);
      expect((await outboxEventsAbout(h.deps.db, 'grantId', grants[0]!.id)).map((event) => event.type)).toEqual(['grant.activated']);
    }
  });
});

describe('POST /console/grants/:id/revoke', () => {
  it('revokes the grant with grant.revoked in the same transaction, once', async () => {
    const { restaurant, link } = await linkFor();
    const grant = (await approve(link.token, restaurant.id)).body.data;
    const access = await h.subscribe('access:invalidate');
    const res = await revokeGrant(grant.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: grant.id, status: 'revoked', revokedAt: expect.any(String) });
    expect(await h.deps.db.selectFrom('grants').select(['status', 'revoked_at']).where('id', '=', grant.id).executeTakeFirst()).toEqual({
      status: 'revoked',
      revoked_at: new Date(res.body.data.revokedAt),
    });
    const events = await outboxEventsAbout(h.deps.db, 'grantId', grant.id);
    expect(events.map((event) => event.type)).toEqual(['grant.activated', 'grant.revoked']);
    expect(events[1]!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'grants', grant.id));
    expect(await access.drain()).toEqual([{ restaurantId: restaurant.id }]);

    const again = await revokeGrant(grant.id);
    expect(again.body.data).toEqual(res.body.data);
    expect(await outboxEventsAbout(h.deps.db, 'grantId', grant.id)).toHaveLength(2);
    expect(await access.drain()).toEqual([{ restaurantId: restaurant.id }]);
  });

  it('lets the restaurant connect again afterwards, and 404s an unknown grant', async () => {
    const { integrator, restaurant, link } = await linkFor();
    const first = (await approve(link.token, restaurant.id)).body.data;
    await revokeGrant(first.id);
    const next = zData(ZConnectLink).parse((await createLink(integrator.id)).body).data;
    const second = (await approve(next.token, restaurant.id)).body.data;
    expect(second).toMatchObject({ status: 'active' });
    expect(second.id).not.toBe(first.id);
    const listed = await request(h.app).get(`/console/restaurants/${restaurant.id}/grants`).set(h.admin);
    expect(listed.body.data.map((grant: { id: string; status: string }) => [grant.id, grant.status])).toEqual([
      [second.id, 'active'],
      [first.id, 'revoked'],
    ]);
    expectError(await revokeGrant('grt_unknown000000'), 404, 'not_found');
  });
});
