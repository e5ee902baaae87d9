import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@partner/auth';
import { ZWebhookDelivery, zData } from '@partner/contracts';
import { collectPages, type Route, startWebhooksHarness, type WebhooksHarness } from '../testing/app-harness.js';
import { expectError, expectGatewayOnly } from '../testing/http-expectations.js';
import {
  arrangeDelivery,
  arrangeDeliveryLog,
  arrangeEndpoint,
  arrangeEventDelivery,
  arrangeOwner,
  emitItemUpdated,
  findDeliveries,
  findEndpointRow,
  newestFirst,
} from '../testing/webhook-fixtures.js';
import { updateWebhookEndpoint } from '../webhooks.repository.js';

const deliveriesPath = '/internal/webhook-deliveries';
const enablePath = (id: string) => `/internal/webhook-endpoints/${id}/enable`;
const resendPath = (id: string) => `${deliveriesPath}/${id}/resend`;
const operator: Principal = { kind: 'operator' };

let h: WebhooksHarness;
beforeAll(async () => {
  h = await startWebhooksHarness();
});
afterAll(() => h.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((item) => item.id);

async function disabledEndpoint() {
  const { owner } = await arrangeOwner(h.deps.db);
  const endpoint = await arrangeEndpoint(h.deps.db, owner, { disabledReason: '8 delivery attempts failed.' });
  const delivery = await arrangeEventDelivery(h.deps.db, endpoint.id, owner, { status: 'failed' });
  return { endpoint, delivery };
}

describe('who may call', () => {
  const routes: Route[] = [
    ['get', deliveriesPath],
    ['get', `${deliveriesPath}/whd_missing00000000000000`],
    ['post', resendPath('whd_missing00000000000000')],
    ['post', enablePath('we_missing000000000000000')],
  ];

  it.each(routes)('%s %s lets in only the gateway token for webhooks', async (...route) => {
    await expectGatewayOnly(h, route, operator);
  });

  it.each(routes)('%s %s refuses a key, however privileged, and anyone but console', async (method, path) => {
    const { principal } = await arrangeOwner(h.deps.db);
    expectError(await h.as(principal)[method](path), 401, 'unauthorized');
    expectError(await h.as({ kind: 'public' })[method](path), 401, 'unauthorized');
  });

  it("lets a signed-in owner (console's owner token) act on its own endpoints and deliveries only, another's being 404", async () => {
    const mine = await disabledEndpoint();
    const theirs = await disabledEndpoint();
    const { owner } = await arrangeOwner(h.deps.db);
    const mineOwner = await findEndpointRow(h.deps.db, mine.endpoint.id);
    const asOwner = h.as({ kind: 'owner', owner: { kind: mineOwner.owner_kind, id: mineOwner.owner_id } });

    expectError(await asOwner.post(enablePath(theirs.endpoint.id)), 404, 'not_found');
    expect((await findEndpointRow(h.deps.db, theirs.endpoint.id)).status).toBe('disabled');
    expectError(await asOwner.post(resendPath(theirs.delivery.id)), 404, 'not_found');
    expect(ids(await asOwner.get(deliveriesPath))).toEqual([mine.delivery.id]);

    const enabled = await asOwner.post(enablePath(mine.endpoint.id));
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.status).toBe('active');
    // An owner with nothing sees nothing.
    expect(ids(await h.as({ kind: 'owner', owner }).get(deliveriesPath))).toEqual([]);
  });

  it('shows one delivery with the payload its receiver got, to the operator and to its owner only', async () => {
    const { owner } = await arrangeOwner(h.deps.db);
    const endpoint = await arrangeEndpoint(h.deps.db, owner);
    const eventId = await emitItemUpdated(h.deps.db, owner);
    const failed = await arrangeDelivery(h.deps.db, endpoint.id, { createdAt: new Date(Date.now() - 60_000), eventId, status: 'failed' });
    const delivery = await arrangeDelivery(h.deps.db, endpoint.id, { createdAt: new Date(), eventId });
    const ping = await arrangeDelivery(h.deps.db, endpoint.id, { createdAt: new Date(), eventType: 'ping' });

    const shown = await h.as({ kind: 'owner', owner }).get(`${deliveriesPath}/${delivery.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id: delivery.id, eventId, eventType: 'item.updated', status: 'succeeded' });
    expect(shown.body.data.payload).toMatchObject({ id: eventId, type: 'item.updated', data: { restaurantId: owner.id } });
    expect((await h.as(operator).get(`${deliveriesPath}/${delivery.id}`)).body.data.payload.id).toBe(eventId);
    // Every attempt at that event to that endpoint, oldest first, each with its answer.
    expect(shown.body.data.attempts.map((attempt: { id: string; status: string }) => [attempt.id, attempt.status])).toEqual([
      [failed.id, 'failed'],
      [delivery.id, 'succeeded'],
    ]);
    // What never went out is not shown: a held delivery (a lapsed plan) has no payload to read.
    const heldEvent = await emitItemUpdated(h.deps.db, owner);
    const held = await arrangeDelivery(h.deps.db, endpoint.id, { createdAt: new Date(), eventId: heldEvent, status: 'held' });
    expect((await h.as({ kind: 'owner', owner }).get(`${deliveriesPath}/${held.id}`)).body.data.payload).toBeNull();
    // A test event is kept nowhere: no payload to show.
    expect((await h.as(operator).get(`${deliveriesPath}/${ping.id}`)).body.data.payload).toBeNull();

    const stranger = await arrangeOwner(h.deps.db);
    expectError(await h.as({ kind: 'owner', owner: stranger.owner }).get(`${deliveriesPath}/${delivery.id}`), 404, 'not_found');
    expectError(await h.as(operator).get(`${deliveriesPath}/whd_missing00000000000000`), 404, 'not_found');
  });

  it("lets an owner's key neither resend nor re-enable its own endpoint here", async () => {
    const { principal, owner, deliveries } = await arrangeDeliveryLog(h.deps.db);
    expectError(await h.as(principal).post(resendPath(deliveries[0].id)), 401, 'unauthorized');
    expect(await findDeliveries(h.deps.db, deliveries[0].event_id)).toHaveLength(1);

    const disabled = await arrangeEndpoint(h.deps.db, owner, { disabledReason: 'The endpoint answered 410 Gone.' });
    expectError(await h.as(principal).post(enablePath(disabled.id)), 401, 'unauthorized');
    expect((await findEndpointRow(h.deps.db, disabled.id)).status).toBe('disabled');
  });
});

describe('GET /internal/webhook-deliveries', () => {
  it("lists every owner's deliveries, newest first, with the owners' filters", async () => {
    const first = await arrangeDeliveryLog(h.deps.db);
    const second = await arrangeDeliveryLog(h.deps.db);
    const everyone = [...first.deliveries, first.stranger.delivery, ...second.deliveries, second.stranger.delivery];

    const res = await h.as(operator).get(deliveriesPath).query({ limit: '1000' });
    expect(res.status).toBe(200);
    const ours = new Set(everyone.map((row) => row.id));
    const expected = everyone.map((row) => ({ id: row.id, createdAt: row.created_at.toISOString() })).sort(newestFirst);
    // Other tests of this file log deliveries too: these are the ones to find, in order among them.
    expect(ids(res).filter((id) => ours.has(id))).toEqual(expected.map((row) => row.id));

    const byEndpoint = await h.as(operator).get(deliveriesPath).query({ endpointId: second.endpoints[1].id, status: 'succeeded' });
    expect(ids(byEndpoint)).toEqual([second.deliveries[2].id]);
  });

  it("pages with cursors of its own: an owner's cursor is refused here, and its cursor by an owner", async () => {
    const { principal } = await arrangeDeliveryLog(h.deps.db);
    const all = ids(await h.as(operator).get(deliveriesPath).query({ limit: '1000' }));
    expect((await collectPages(h.as(operator), deliveriesPath, { limit: '3' })).ids).toEqual(all);

    const ownerCursor = (await h.as(principal).get('/v1/partner/webhook-deliveries').query({ limit: '1' })).body.meta.nextCursor;
    const operatorCursor = (await h.as(operator).get(deliveriesPath).query({ limit: '1' })).body.meta.nextCursor;
    expectError(await h.as(operator).get(deliveriesPath).query({ cursor: ownerCursor }), 400, 'invalid_cursor', 'cursor');
    expectError(
      await h.as(principal).get('/v1/partner/webhook-deliveries').query({ cursor: operatorCursor }),
      400,
      'invalid_cursor',
      'cursor',
    );
  });

  it('refuses bad filters', async () => {
    expectError(await h.as(operator).get(deliveriesPath).query({ status: 'lost' }), 400, 'invalid_request', 'status');
  });
});

describe('POST /internal/webhook-deliveries/:id/resend', () => {
  it("resends any owner's delivery as a new one of the same event", async () => {
    const { owner, endpoints } = await arrangeDeliveryLog(h.deps.db);
    const original = await arrangeEventDelivery(h.deps.db, endpoints[0].id, owner);
    const res = await h.as(operator).post(resendPath(original.id));
    expect(res.status).toBe(201);
    const resent = zData(ZWebhookDelivery).parse(res.body).data;
    expect(resent.id).not.toBe(original.id);
    expect(resent).toMatchObject({ eventId: original.event_id, endpointId: original.endpoint_id, attempt: 1, status: 'pending' });
    expect((await findDeliveries(h.deps.db, original.event_id)).map((row) => row.id)).toEqual([original.id, resent.id]);
  });

  it('refuses a disabled endpoint (409) and an unknown delivery (404)', async () => {
    const { delivery } = await disabledEndpoint();
    expectError(await h.as(operator).post(resendPath(delivery.id)), 409, 'conflict');
    expect(await findDeliveries(h.deps.db, delivery.event_id)).toHaveLength(1);
    expectError(await h.as(operator).post(resendPath('whd_missing00000000000000')), 404, 'not_found');
  });
});

describe('POST /internal/webhook-endpoints/:id/enable', () => {
  it('re-enables a disabled endpoint; its deliveries can be resent again', async () => {
    const { endpoint, delivery } = await disabledEndpoint();
    const res = await h.as(operator).post(enablePath(endpoint.id));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: endpoint.id, status: 'active', disabledReason: null });
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await h.as(operator).post(resendPath(delivery.id))).status).toBe(201);
  });

  it('answers 404 for an unknown or deleted endpoint', async () => {
    expectError(await h.as(operator).post(enablePath('we_missing000000000000000')), 404, 'not_found');
    const { endpoint } = await disabledEndpoint();
    await updateWebhookEndpoint(h.deps.db, endpoint.id, { deleted_at: new Date() });
    expectError(await h.as(operator).post(enablePath(endpoint.id)), 404, 'not_found');
    expect((await findEndpointRow(h.deps.db, endpoint.id)).status).toBe('disabled');
  });
});
