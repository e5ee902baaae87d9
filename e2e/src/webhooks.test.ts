import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEvent, ZWebhookDelivery, ZWebhookEndpointWithSecret, zData } from '@partner/contracts';
import { silentLogger } from '@partner/http';
import { verifyWebhook, WebhookSignatureError } from '@partner/sdk';
import { OwnerMailer } from '@partner/webhooks';
import { expectError } from './expect-error.js';
import { ownDispatcher } from './own-dispatcher.js';
import { grantAccess, integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

let stack: Stack;
let strict: Stack;
beforeAll(async () => {
  stack = await startStack({ webhooksEnv: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  strict = await startStack();
});
afterAll(async () => {
  await stack.stop();
  await strict.stop();
});

const dispatcherWithClock = (base?: number) => ownDispatcher(stack, { base });

async function register(auth: Record<string, string>, body: Record<string, unknown>, on: Stack = stack) {
  return request(on.gatewayUrl).post('/v1/partner/webhook-endpoints').set(auth).send(body);
}

describe('webhook endpoints', () => {
  it('registers an endpoint, shows the secret once, and hides it from other owners', async () => {
    const { auth } = await restaurantWithKey(strict);
    const created = await register(auth, { url: 'https://93.184.215.14/hooks', enabledEvents: ['item.updated'] }, strict);
    expect(created.status).toBe(201);
    const endpoint = zData(ZWebhookEndpointWithSecret).parse(created.body).data;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const read = await request(strict.gatewayUrl).get(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth);
    expect(read.body.data.secret).toBeUndefined();
    expect(read.body.data).toMatchObject({ status: 'active', enabledEvents: ['item.updated'] });
    const stranger = await restaurantWithKey(strict);
    expectError(await request(strict.gatewayUrl).get(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(stranger.auth), 404, 'not_found');
    expectError(
      await request(strict.gatewayUrl).delete(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(stranger.auth),
      404,
      'not_found',
    );
  });

  it.each([
    ['http without the development switch', 'http://93.184.215.14/hooks'],
    ['loopback IPv4', 'https://127.0.0.1/hooks'],
    ['loopback IPv6', 'https://[::1]/hooks'],
    ['a private address', 'https://10.0.0.1/hooks'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a name that resolves to loopback', 'https://localhost/hooks'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks'],
    ['credentials in the URL', 'https://user:pass@93.184.215.14/hooks'],
    ['not a URL', 'hooks.example.com'],
  ])('refuses %s', async (_name, url) => {
    const { auth } = await restaurantWithKey(strict);
    const res = await register(auth, { url }, strict);
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.param).toBe('url');
  });

  it('creates one endpoint for retries with one Idempotency-Key, and answers them the same secret', async () => {
    const { auth } = await restaurantWithKey(strict);
    const body = { url: 'https://93.184.215.14/once', enabledEvents: ['item.updated'] };
    const send = () => request(strict.gatewayUrl).post('/v1/partner/webhook-endpoints').set(auth).set('Idempotency-Key', 'create-once');
    const [first, concurrent] = await Promise.all([send().send(body), send().send(body)]);
    const later = await send().send(body);
    expect(first.status).toBe(201);
    expect(concurrent.body).toEqual(first.body);
    expect(later.body).toEqual(first.body);
    expect(later.headers['idempotent-replayed']).toBe('true');
    const listed = await request(strict.gatewayUrl).get('/v1/partner/webhook-endpoints').set(auth);
    expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([first.body.data.id]);
    expectError(await send().send({ ...body, url: 'https://93.184.215.14/other' }), 409, 'idempotency_key_conflict');
  });

  it('refuses unknown event types and fields', async () => {
    const { auth } = await restaurantWithKey(strict);
    expectError(await register(auth, { url: 'https://93.184.215.14/h', enabledEvents: ['item.eaten'] }, strict), 400, 'invalid_request');
    expectError(await register(auth, { url: 'https://93.184.215.14/h', secret: 'mine' }, strict), 400, 'invalid_request');
  });
});

describe('delivery', () => {
  it('signs each event exactly as spec 6.3 says; the SDK helper verifies it', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url })).body.data;
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const { dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    await close();
    expect(receiver.received).toHaveLength(1);
    const [hit] = receiver.received;
    const event = ZEvent.parse(await verifyWebhook(hit!.body, hit!.headers, endpoint.secret));
    expect(event).toMatchObject({ type: 'item.created', data: { itemId: item.id, restaurantId: restaurant.id, itemName: 'Soup' } });
    expect(hit!.headers['x-service-event']).toBe('item.created');
    expect(hit!.headers['content-type']).toBe('application/json');
    const deliveryId = hit!.headers['x-service-delivery'] as string;
    const row = await stack.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'succeeded', response_status: 200, event_id: event.id, attempt: 1 });
    await receiver.close();
  });

  it('delivers to integrators with an active grant, by their event filter, and to no one else', async () => {
    const receiver = await startReceiver();
    const { restaurant } = await restaurantWithKey(stack);
    const granted = await integratorWithKey(stack);
    await grantAccess(stack, granted.org.id, restaurant.id);
    const other = await integratorWithKey(stack);
    await register(granted.auth, { url: `${receiver.url}?who=granted`, enabledEvents: ['item.updated'] });
    await register(other.auth, { url: `${receiver.url}?who=other` });
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600, status: 'published' });
    await stack.console.updateItem(item.id, { priceCents: 650 });
    const { dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    await close();
    const types = receiver.received.map((hit) => [JSON.parse(hit.body).type, hit.headers['x-service-event']]);
    expect(types).toEqual([['item.updated', 'item.updated']]);
    await receiver.close();
  });

  it("keeps drafts and a grant without menu:read out of integrators' webhooks; the restaurant hears of both", async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    const menuReader = await integratorWithKey(stack);
    await grantAccess(stack, menuReader.org.id, restaurant.id);
    const assetsOnly = await integratorWithKey(stack);
    const link = await stack.console.createConnectLink(assetsOnly.org.id, { scopes: ['assets:read'] });
    await stack.console.approveConnectLink(link.token, restaurant.id);
    for (const [who, owner] of [
      ['reader', menuReader.auth],
      ['assets-only', assetsOnly.auth],
      ['owner', auth],
    ] as const) {
      await register(owner, { url: `${receiver.url}?who=${who}`, enabledEvents: ['item.created', 'item.updated'] });
    }
    const draft = await stack.console.createItem(restaurant.id, { name: 'Secret special', priceCents: 900, status: 'draft' });
    await stack.console.updateItem(draft.id, { priceCents: 950 });
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600, status: 'published' });
    // A dish taken off the menu is news to integrators too; once a draft, its later edits are not.
    const stew = await stack.console.createItem(restaurant.id, { name: 'Stew', priceCents: 1200, status: 'published' });
    await stack.console.updateItem(stew.id, { status: 'draft' });
    await stack.console.updateItem(stew.id, { priceCents: 1100 });
    const { dispatcher, close } = dispatcherWithClock();
    await expect.poll(async () => (await dispatcher.tick(), receiver.received.length), { timeout: 5000 }).toBe(9);
    await close();
    const seen = receiver.received.map(
      (hit) => `${new URL(hit.url, 'http://x').searchParams.get('who')} ${JSON.parse(hit.body).data.itemName}`,
    );
    expect(seen.sort()).toEqual([
      'owner Secret special',
      'owner Secret special',
      'owner Soup',
      'owner Stew',
      'owner Stew',
      'owner Stew',
      'reader Soup',
      'reader Stew',
      'reader Stew',
    ]);
    await receiver.close();
  });

  it('retries on the schedule (60 s doubling, 8 attempts), then disables the endpoint and notifies the owner', async () => {
    const receiver = await startReceiver(() => 500);
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url, enabledEvents: ['item.created'] })).body.data;
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const start = Date.now();
    const { clock, dispatcher, close } = dispatcherWithClock(start);
    const attemptsAt: number[] = [];
    for (let step = 0; step < 8000 && receiver.received.length < 8; step++) {
      const before = receiver.received.length;
      await dispatcher.tick();
      if (receiver.received.length > before) attemptsAt.push(clock.now - start);
      clock.now += 10_000;
    }
    await close();
    const delays = attemptsAt.slice(1).map((at, i) => at - attemptsAt[i]!);
    expect(attemptsAt).toHaveLength(8);
    // Each retry lands on the first 10-second tick after its due time.
    expect(delays.map((d) => Math.ceil(d / 10_000) * 10)).toEqual([60, 120, 240, 480, 960, 1920, 3840]);
    const current = await request(stack.gatewayUrl).get(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth);
    expect(current.body.data.status).toBe('disabled');
    expect(current.body.data.disabledReason).toContain('8 delivery attempts');
    const notes = await stack.db.selectFrom('notifications').selectAll().where('owner_id', '=', restaurant.id).execute();
    expect(notes.map((n) => n.kind)).toEqual(['webhook_endpoint_disabled']);

    // While disabled, new events are kept as skipped; after re-enabling they can be resent.
    await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });
    const later = dispatcherWithClock();
    await later.dispatcher.tick();
    const skipped = await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ status: 'skipped' }).set(auth);
    expect(skipped.body.data).toHaveLength(1);
    expectError(
      await request(stack.gatewayUrl).post(`/v1/partner/webhook-deliveries/${skipped.body.data[0].id}/resend`).set(auth),
      409,
      'conflict',
    );
    await request(stack.gatewayUrl).patch(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth).send({ status: 'active' });
    const resent = await request(stack.gatewayUrl).post(`/v1/partner/webhook-deliveries/${skipped.body.data[0].id}/resend`).set(auth);
    expect(resent.status).toBe(201);
    const delivery = zData(ZWebhookDelivery).parse(resent.body).data;
    expect(delivery).toMatchObject({ eventId: skipped.body.data[0].eventId, status: 'pending', attempt: 1 });
    expect(delivery.id).not.toBe(skipped.body.data[0].id);
    later.clock.now = Date.now() + 1000;
    await later.dispatcher.tick();
    await later.close();
    expect(JSON.parse(receiver.received.at(-1)!.body).id).toBe(skipped.body.data[0].eventId);
    await receiver.close();
  });

  it('a 410 Gone disables the endpoint at once', async () => {
    const receiver = await startReceiver(() => 410);
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url })).body.data;
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const { dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    await close();
    expect((await request(stack.gatewayUrl).get(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth)).body.data.status).toBe(
      'disabled',
    );
    await receiver.close();
  });

  it('signs with both secrets during a rotation overlap, and only the new one after it', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url })).body.data;
    const rotated = await request(stack.gatewayUrl)
      .post(`/v1/partner/webhook-endpoints/${endpoint.id}/rotate-secret`)
      .set(auth)
      .send({ overlapSeconds: 3600 });
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).not.toBe(endpoint.secret);
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const { clock, dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    const during = receiver.received.at(-1)!;
    const header = during.headers['x-service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(await verifyWebhook(during.body, header, endpoint.secret)).toBeTruthy();
    expect(await verifyWebhook(during.body, header, newSecret)).toBeTruthy();

    clock.now += 3601_000;
    await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });
    await dispatcher.tick();
    await close();
    const after = receiver.received.at(-1)!;
    const afterHeader = after.headers['x-service-signature'] as string;
    expect(afterHeader.match(/v1=/g)).toHaveLength(1);
    await expect(verifyWebhook(after.body, afterHeader, endpoint.secret, { now: () => clock.now })).rejects.toThrow(WebhookSignatureError);
    expect(await verifyWebhook(after.body, afterHeader, newSecret, { now: () => clock.now })).toBeTruthy();
    await receiver.close();
  });

  it('holds events of a lapsed restaurant, releases them on renewal, and expires them after 72 hours', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    await register(auth, { url: receiver.url });
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    const first = await stack.console.createItem(restaurant.id, { name: 'First', priceCents: 1 });
    const second = await stack.console.createItem(restaurant.id, { name: 'Second', priceCents: 1 });
    const { clock, dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    expect(receiver.received).toHaveLength(0);
    const held = await stack.db.selectFrom('webhook_deliveries').select('status').where('event_type', '=', 'item.created').execute();
    expect(held.filter((row) => row.status === 'held').length).toBeGreaterThanOrEqual(2);
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'active' });
    await dispatcher.tick();
    expect(receiver.received.map((hit) => JSON.parse(hit.body).data.itemId).sort()).toEqual([first.id, second.id].sort());

    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    await stack.console.createItem(restaurant.id, { name: 'Third', priceCents: 1 });
    await dispatcher.tick();
    clock.now += 73 * 3600_000;
    await dispatcher.tick();
    await close();
    const expired = await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ status: 'expired' }).set(auth);
    expect(expired.body.data).toHaveLength(1);
    expect(receiver.received).toHaveLength(2);
    await receiver.close();
  });

  it('two dispatchers at once never send one attempt twice, and lose nothing', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    await register(auth, { url: receiver.url });
    for (let i = 0; i < 60; i++) await stack.console.createItem(restaurant.id, { name: `Dish ${i}`, priceCents: i });
    const a = dispatcherWithClock();
    const b = dispatcherWithClock();
    for (let round = 0; round < 5; round++) await Promise.all([a.dispatcher.tick(), b.dispatcher.tick()]);
    await Promise.all([a.close(), b.close()]);
    const deliveryIds = receiver.received.map((hit) => hit.headers['x-service-delivery']);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
    const eventIds = new Set(receiver.received.map((hit) => JSON.parse(hit.body).id));
    expect(eventIds.size).toBe(60);
    await receiver.close();
  });
});

describe('GET /v1/partner/webhook-deliveries', () => {
  it("lists newest first with filters and cursors, only the owner's", async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url })).body.data;
    for (let i = 0; i < 5; i++) await stack.console.createItem(restaurant.id, { name: `Dish ${i}`, priceCents: i });
    const { dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    await close();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await request(stack.gatewayUrl)
        .get('/v1/partner/webhook-deliveries')
        .query({ limit: '2', endpointId: endpoint.id, ...(cursor ? { cursor } : {}) })
        .set(auth);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((d: { createdAt: string; id: string }) => `${d.createdAt}|${d.id}`));
      cursor = res.body.meta.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(seen).toEqual([...seen].sort().reverse());
    const first = await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ limit: '1' }).set(auth);
    expectError(
      await request(stack.gatewayUrl)
        .get('/v1/partner/webhook-deliveries')
        .query({ cursor: first.body.meta.nextCursor, status: 'failed' })
        .set(auth),
      400,
      'cursor_filter_mismatch',
    );
    const stranger = await restaurantWithKey(stack);
    expect((await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').set(stranger.auth)).body.data).toEqual([]);
    expectError(
      await request(stack.gatewayUrl).post(`/v1/partner/webhook-deliveries/${first.body.data[0].id}/resend`).set(stranger.auth),
      404,
      'not_found',
    );
    expectError(
      await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ status: 'lost' }).set(auth),
      400,
      'invalid_request',
    );
    await receiver.close();
  });
});

describe('grant events and the dashboard', () => {
  it('checks the grant again at send, release and resend: a revoked integrator gets nothing more', async () => {
    const receiver = await startReceiver();
    const { restaurant } = await restaurantWithKey(stack);
    const integrator = await integratorWithKey(stack);
    const grant = await grantAccess(stack, integrator.org.id, restaurant.id);
    const endpoint = (await register(integrator.auth, { url: receiver.url, enabledEvents: ['item.created'] })).body.data;
    const { dispatcher, close } = dispatcherWithClock();
    // One event delivered while the grant holds (to resend later), one held while the restaurant has lapsed.
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600, status: 'published' });
    await expect.poll(async () => (await dispatcher.tick(), receiver.received.length), { timeout: 5000 }).toBe(1);
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300, status: 'published' });
    await dispatcher.tick();
    const heldNow = await stack.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('endpoint_id', '=', endpoint.id)
      .where('status', '=', 'held')
      .execute();
    expect(heldNow).toHaveLength(1);

    await stack.console.revokeGrant(grant.id);
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'active' });
    for (let i = 0; i < 3; i++) await dispatcher.tick();
    await close();
    expect(receiver.received.map((hit) => JSON.parse(hit.body).data.itemName)).toEqual(['Soup']);
    const statuses = await stack.db
      .selectFrom('webhook_deliveries')
      .select(['event_type', 'status'])
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(statuses).toEqual(expect.arrayContaining([{ event_type: 'item.created', status: 'skipped' }]));

    const delivered = (
      await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ status: 'succeeded' }).set(integrator.auth)
    ).body.data;
    expectError(
      await request(stack.gatewayUrl).post(`/v1/partner/webhook-deliveries/${delivered[0].id}/resend`).set(integrator.auth),
      409,
      'conflict',
    );
    await receiver.close();
  });

  it('sends grant.activated and grant.revoked to the integrator concerned, not to the restaurant', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    const integrator = await integratorWithKey(stack);
    await register(integrator.auth, { url: `${receiver.url}?integrator` });
    await register(auth, { url: `${receiver.url}?restaurant` });
    const grant = await grantAccess(stack, integrator.org.id, restaurant.id);
    await stack.console.revokeGrant(grant.id);
    await stack.console.revokeGrant(grant.id); // idempotent: no second event
    const { dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    await close();
    const events = receiver.received.map((hit) => JSON.parse(hit.body));
    expect(events.map((event) => event.type)).toEqual(['grant.activated', 'grant.revoked']);
    for (const event of events) {
      expect(ZEvent.parse(event).data).toEqual({ grantId: grant.id, restaurantId: restaurant.id, integratorOrgId: integrator.org.id });
    }
    await receiver.close();
  });

  it("lists any owner's deliveries, resends and re-enables from console", async () => {
    const receiver = await startReceiver(() => 410);
    const { restaurant, auth } = await restaurantWithKey(stack);
    const endpoint = (await register(auth, { url: receiver.url })).body.data;
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const { clock, dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    const admin = { Authorization: `Bearer ${stack.adminToken}` };
    const log = await request(stack.consoleUrl).get('/console/webhook-deliveries').query({ endpointId: endpoint.id }).set(admin);
    expect(log.body.data).toEqual([expect.objectContaining({ endpointId: endpoint.id, status: 'failed', responseStatus: 410 })]);
    expectError(
      await request(stack.consoleUrl).post(`/console/webhook-deliveries/${log.body.data[0].id}/resend`).set(admin),
      409,
      'conflict',
    );
    const enabled = await request(stack.consoleUrl).post(`/console/webhook-endpoints/${endpoint.id}/enable`).set(admin);
    expect(enabled.body.data).toMatchObject({ status: 'active', disabledReason: null });
    const resent = await request(stack.consoleUrl).post(`/console/webhook-deliveries/${log.body.data[0].id}/resend`).set(admin);
    expect(resent.status).toBe(201);
    clock.now = Date.now() + 1000;
    await dispatcher.tick();
    await close();
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body).id).toBe(log.body.data[0].eventId);
    expectError(await request(stack.consoleUrl).post('/console/webhook-endpoints/we_nope/enable').set(admin), 404, 'not_found');
    await receiver.close();
  });
});

describe('menu.updated', () => {
  it('coalesces a burst of item changes into one event per restaurant, after a quiet period', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    await register(auth, { url: receiver.url, enabledEvents: ['menu.updated'] });
    const soup = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const bread = await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });
    await stack.console.updateItem(soup.id, { priceCents: 650 });
    await stack.console.deleteItem(bread.id);
    // Drafts are not on the menu: neither their changes nor their deletion are part of menu.updated.
    const draft = await stack.console.createItem(restaurant.id, { name: 'Secret special', priceCents: 900, status: 'draft' });
    await stack.console.updateItem(draft.id, { priceCents: 950 });
    const droppedDraft = await stack.console.createItem(restaurant.id, { name: 'Old idea', priceCents: 100, status: 'draft' });
    await stack.console.deleteItem(droppedDraft.id);
    const { clock, dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    expect(receiver.received).toHaveLength(0); // still inside the quiet period
    clock.now += 5_000;
    await dispatcher.tick();
    await dispatcher.tick();
    expect(receiver.received).toHaveLength(1);
    const event = ZEvent.parse(JSON.parse(receiver.received[0]!.body));
    expect(event.type).toBe('menu.updated');
    const menu = await request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurant.id}/menu`).set(auth);
    expect(event.data).toEqual({
      restaurantId: restaurant.id,
      etag: menu.headers.etag,
      changedItemIds: [soup.id],
      deletedItemIds: [bread.id],
      truncated: false,
    });

    // A change after the burst is announced starts the next one.
    await stack.console.updateItem(soup.id, { priceCents: 700 });
    clock.now += 1_000;
    await dispatcher.tick();
    clock.now += 5_000;
    await dispatcher.tick();
    await dispatcher.tick();
    await close();
    expect(receiver.received).toHaveLength(2);
    await receiver.close();
  });

  it('follows a change of the menu that touches no dish: a new section, the restaurant renamed', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    await register(auth, { url: receiver.url, enabledEvents: ['menu.updated'] });
    const menuPath = `/v1/partner/restaurants/${restaurant.id}/menu`;
    const before = await request(stack.gatewayUrl).get(menuPath).set(auth).expect(200);
    await stack.console.createSection(restaurant.id, { name: 'Desserts' });
    await stack.console.updateRestaurant(restaurant.id, { name: 'Chez Nouveau' });
    const { clock, dispatcher, close } = dispatcherWithClock();
    await dispatcher.tick();
    clock.now += 5_000;
    await dispatcher.tick();
    await dispatcher.tick();
    await close();

    const menu = await request(stack.gatewayUrl).get(menuPath).set(auth).set('If-None-Match', before.headers.etag!).expect(200);
    expect(menu.body.data.restaurant.name).toBe('Chez Nouveau');
    expect(receiver.received).toHaveLength(1);
    const event = ZEvent.parse(JSON.parse(receiver.received[0]!.body));
    expect(event).toMatchObject({
      type: 'menu.updated',
      data: { restaurantId: restaurant.id, etag: menu.headers.etag, changedItemIds: [], deletedItemIds: [], truncated: false },
    });
    await receiver.close();
  });
});

describe('delivery-time target checks', () => {
  it('refuses to connect to a loopback target at delivery when private targets are not allowed', async () => {
    const receiver = await startReceiver();
    const { restaurant, auth } = await restaurantWithKey(stack);
    await register(auth, { url: receiver.url });
    await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const strict = ownDispatcher(stack, { allowPrivate: false });
    await strict.dispatcher.tick();
    await strict.close();
    expect(receiver.received).toHaveLength(0);
    const failed = await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ status: 'failed' }).set(auth);
    expect(failed.body.data[0].error).toMatch(/private|loopback|link-local|https/);
    await receiver.close();
  });
});

describe('owner notification by e-mail', () => {
  it("mails the owner's contact address through SMTP when an endpoint is disabled", async () => {
    const { SMTPServer } = await import('smtp-server');
    const mails: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;

    const receiver = await startReceiver(() => 410);
    const owner = await stack.console.createRestaurant({
      name: 'Mail Bistro',
      slug: 'mail-bistro',
      contactEmail: 'owner@mail-bistro.test',
    });
    const key = await stack.console.createKey({ restaurantId: owner.id, type: 'secret', environment: 'live', name: 'k' });
    await register({ Authorization: `Bearer ${key.value}` }, { url: receiver.url });
    await stack.console.createItem(owner.id, { name: 'Soup', priceCents: 600 });

    const mailer = new OwnerMailer(`smtp://127.0.0.1:${port}`, 'Partner Platform <notifications@partner.test>', silentLogger());
    const { dispatcher, close } = ownDispatcher(stack, { mailer });
    await dispatcher.tick();
    await close();
    mailer.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await receiver.close();

    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['owner@mail-bistro.test']);
    expect(mails[0]!.raw).toContain('Subject: A webhook endpoint was disabled');
    expect(mails[0]!.raw).toContain('410 Gone');
  });
});
