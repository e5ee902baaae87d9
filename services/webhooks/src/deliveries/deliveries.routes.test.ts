import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebhookDelivery, zData } from '@partner/contracts';
import { newId } from '@partner/http';
import { updateRestaurant } from '@partner/testing';
import { collectPages, type Route, startWebhooksHarness, type WebhooksHarness } from '../testing/app-harness.js';
import { expectError, expectGatewayOnly } from '../testing/http-expectations.js';
import {
  arrangeDelivery,
  arrangeDeliveryLog,
  arrangeEndpoint,
  arrangeEventDelivery,
  arrangeGrantedIntegrator,
  arrangeOwner,
  findDeliveries,
} from '../testing/webhook-fixtures.js';
import { insertDeliveries, recordSucceededDeliveries, updateWebhookEndpoint } from '../webhooks.repository.js';

const base = '/v1/partner/webhook-deliveries';
const missingId = 'whd_missing00000000000000';

let h: WebhooksHarness;
beforeAll(async () => {
  h = await startWebhooksHarness();
});
afterAll(() => h.close());

/** A delivery log (see arrangeDeliveryLog) and a client calling as its owner's key. */
async function ownerWithLog() {
  const log = await arrangeDeliveryLog(h.deps.db);
  return { ...log, api: h.as(log.principal) };
}

const newestFirstIds = (rows: readonly { id: string }[]) => rows.map((row) => row.id).reverse();

describe('the gateway guard', () => {
  const routes: Route[] = [
    ['get', base],
    ['post', `${base}/${missingId}/resend`],
  ];

  it.each(routes)('%s %s lets in only the gateway token for webhooks', async (...route) => {
    const { principal } = await arrangeOwner(h.deps.db);
    await expectGatewayOnly(h, route, principal);
  });

  it.each(routes)('%s %s wants an API key: an operator token is refused', async (method, path) => {
    expectError(await h.as({ kind: 'operator' })[method](path), 401, 'invalid_api_key');
  });
});

describe('GET /v1/partner/webhook-deliveries', () => {
  it("lists the owner's own deliveries, newest first", async () => {
    const { api, deliveries, endpoints, stranger } = await ownerWithLog();
    const res = await api.get(base);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ nextCursor: null });
    expect(res.body.data.map((delivery: unknown) => ZWebhookDelivery.strict().parse(delivery).id)).toEqual(newestFirstIds(deliveries));
    const pending = deliveries.at(-1)!;
    expect(res.body.data[0]).toEqual({
      id: pending.id,
      eventId: pending.event_id,
      eventType: 'item.updated',
      endpointId: endpoints[0].id,
      attempt: 1,
      status: 'pending',
      responseStatus: null,
      durationMs: null,
      error: null,
      createdAt: pending.created_at.toISOString(),
      nextAttemptAt: pending.created_at.toISOString(),
    });

    const theirs = await h.as(stranger.principal).get(base);
    expect(theirs.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([stranger.delivery.id]);
  });

  type Log = Awaited<ReturnType<typeof ownerWithLog>>;
  type Delivery = Log['deliveries'][number];
  const filters: [string, (log: Log) => Record<string, string>, (log: Log, row: Delivery) => boolean][] = [
    ['endpointId', (log) => ({ endpointId: log.endpoints[1].id }), (log, row) => row.endpoint_id === log.endpoints[1].id],
    ['eventType', () => ({ eventType: 'item.updated' }), (_log, row) => row.event_type === 'item.updated'],
    ['status', () => ({ status: 'succeeded' }), (_log, row) => row.status === 'succeeded'],
    ['eventId', (log) => ({ eventId: log.deliveries[2].event_id }), (log, row) => row.event_id === log.deliveries[2].event_id],
    [
      'endpointId and eventType together',
      (log) => ({ endpointId: log.endpoints[0].id, eventType: 'item.updated' }),
      (log, row) => row.endpoint_id === log.endpoints[0].id && row.event_type === 'item.updated',
    ],
  ];

  it.each(filters)('filters by %s', async (_name, query, matches) => {
    const log = await ownerWithLog();
    const expected = newestFirstIds(log.deliveries.filter((row) => matches(log, row)));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(log.deliveries.length);
    const res = await log.api.get(base).query(query(log));
    expect(res.status).toBe(200);
    expect(res.body.data.map((delivery: { id: string }) => delivery.id)).toEqual(expected);
  });

  it('pages with cursors through the whole log, each delivery once', async () => {
    const { api, deliveries } = await ownerWithLog();
    expect(await collectPages(api, base, { limit: '2' })).toEqual({ ids: newestFirstIds(deliveries), pages: 3 });
  });

  it('pages a filtered listing with the same filters', async () => {
    const { api, deliveries } = await ownerWithLog();
    const updates = deliveries.filter((row) => row.event_type === 'item.updated');
    expect(await collectPages(api, base, { limit: '1', eventType: 'item.updated' })).toEqual({
      ids: newestFirstIds(updates),
      pages: updates.length,
    });
  });

  it('loses no delivery between pages when several share a timestamp', async () => {
    const { owner, principal } = await arrangeOwner(h.deps.db);
    const endpoint = await arrangeEndpoint(h.deps.db, owner);
    const createdAt = new Date(Date.now() - 60_000);
    for (let i = 0; i < 5; i++) await arrangeDelivery(h.deps.db, endpoint.id, { createdAt });
    const api = h.as(principal);
    const onePage = (await api.get(base)).body.data.map((delivery: { id: string }) => delivery.id);
    expect(onePage).toHaveLength(5);
    expect(await collectPages(api, base, { limit: '2' })).toEqual({ ids: onePage, pages: 3 });
  });

  it('refuses a cursor with other filters than its first page', async () => {
    const { api, endpoints } = await ownerWithLog();
    const unfiltered = (await api.get(base).query({ limit: '1' })).body.meta.nextCursor;
    const byEndpoint = (await api.get(base).query({ limit: '1', endpointId: endpoints[0].id })).body.meta.nextCursor;
    expectError(await api.get(base).query({ cursor: unfiltered, status: 'failed' }), 400, 'cursor_filter_mismatch', 'cursor');
    expectError(await api.get(base).query({ cursor: byEndpoint, endpointId: endpoints[1].id }), 400, 'cursor_filter_mismatch', 'cursor');
    expectError(await api.get(base).query({ cursor: byEndpoint }), 400, 'cursor_filter_mismatch', 'cursor');
  });

  it("refuses a cursor that is not one of ours, was edited, or is another owner's", async () => {
    const { api, stranger } = await ownerWithLog();
    const cursor: string = (await api.get(base).query({ limit: '1' })).body.meta.nextCursor;
    const [body, mac] = cursor.split('.') as [string, string];
    const edited = `${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    for (const bad of ['garbage', 'e30.AAAA', edited]) {
      expectError(await api.get(base).query({ cursor: bad }), 400, 'invalid_cursor', 'cursor');
    }
    expectError(await h.as(stranger.principal).get(base).query({ cursor }), 400, 'invalid_cursor', 'cursor');
  });

  it.each([
    ['an unknown status', { status: 'lost' }, 'status'],
    ['an unknown event type', { eventType: 'item.eaten' }, 'eventType'],
    ['an endpoint id of another kind', { endpointId: 'evt_123' }, 'endpointId'],
    ['a limit of 0', { limit: '0' }, 'limit'],
    ['a limit over 1000', { limit: '1001' }, 'limit'],
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['an empty cursor', { cursor: '' }, 'cursor'],
    ['an unknown parameter', { sort: 'asc' }, 'sort'],
  ])('refuses %s', async (_name, query, param) => {
    const { api } = await ownerWithLog();
    expectError(await api.get(base).query(query), 400, 'invalid_request', param);
  });
});

describe('POST /v1/partner/webhook-deliveries/:id/resend', () => {
  it('sends the same event again as a new delivery, due now', async () => {
    const { api, owner, endpoints } = await ownerWithLog();
    const original = await arrangeEventDelivery(h.deps.db, endpoints[0].id, owner);
    const before = await findDeliveries(h.deps.db, original.event_id);

    const res = await api.post(`${base}/${original.id}/resend`);
    expect(res.status).toBe(201);
    const resent = zData(ZWebhookDelivery).parse(res.body).data;
    expect(resent.id).toMatch(/^whd_/);
    expect(resent.id).not.toBe(original.id);
    expect(resent).toMatchObject({
      eventId: original.event_id,
      eventType: original.event_type,
      endpointId: original.endpoint_id,
      attempt: 1,
      status: 'pending',
    });
    expect(resent.nextAttemptAt).toBe(resent.createdAt);

    const after = await findDeliveries(h.deps.db, original.event_id);
    expect(after).toEqual([...before, expect.objectContaining({ id: resent.id, status: 'pending', next_attempt_at: expect.any(Date) })]);
    expect((await api.get(base)).body.data[0]).toEqual(resent);
  });

  it('brings the attempt still under way forward instead of starting a second chain of retries, a double click too', async () => {
    const { api, owner, endpoints } = await ownerWithLog();
    const failed = await arrangeEventDelivery(h.deps.db, endpoints[0].id, owner, { status: 'failed' });
    const inAnHour = new Date(Date.now() + 3600_000);
    const retry = {
      ...failed,
      id: newId('whd'),
      attempt: 2,
      status: 'pending' as const,
      next_attempt_at: inAnHour,
      created_at: new Date(),
    };
    await insertDeliveries(h.deps.db, [retry]);

    const [first, second] = [await api.post(`${base}/${failed.id}/resend`), await api.post(`${base}/${failed.id}/resend`)];
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(zData(ZWebhookDelivery).parse(res.body).data).toMatchObject({ id: retry.id, attempt: 2, status: 'pending' });
      expect(Date.parse(res.body.data.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
    }
    expect((await findDeliveries(h.deps.db, failed.event_id)).map((row) => row.id)).toEqual([failed.id, retry.id]);
  });

  it('answers 404 for a delivery whose event retention has just taken, and queues nothing', async () => {
    const { api, owner, endpoints } = await ownerWithLog();
    const original = await arrangeEventDelivery(h.deps.db, endpoints[0].id, owner);
    // What the resend finds when retention deleted the event (and the delivery) after it read the delivery.
    await h.deps.db.deleteFrom('outbox_events').where('id', '=', original.event_id).execute();
    expectError(await api.post(`${base}/${original.id}/resend`), 404, 'not_found');
    expect(await findDeliveries(h.deps.db, original.event_id)).toHaveLength(1);
  });

  it("answers 404 for another owner's delivery, as for a missing one, and sends nothing", async () => {
    const { api, stranger } = await ownerWithLog();
    const foreign = await api.post(`${base}/${stranger.delivery.id}/resend`);
    const missing = await api.post(`${base}/${missingId}/resend`);
    expectError(foreign, 404, 'not_found');
    expectError(missing, 404, 'not_found');
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expect(await findDeliveries(h.deps.db, stranger.delivery.event_id)).toHaveLength(1);
  });

  it('refuses to resend to a disabled endpoint', async () => {
    const { owner, principal } = await arrangeOwner(h.deps.db);
    const endpoint = await arrangeEndpoint(h.deps.db, owner, { disabledReason: 'The endpoint answered 410 Gone.' });
    const delivery = await arrangeDelivery(h.deps.db, endpoint.id, { createdAt: new Date(), status: 'skipped' });
    expectError(await h.as(principal).post(`${base}/${delivery.id}/resend`), 409, 'conflict');
    expect(await findDeliveries(h.deps.db, delivery.event_id)).toHaveLength(1);
  });

  it('answers 404 once the endpoint is deleted', async () => {
    const { api, deliveries } = await ownerWithLog();
    await updateWebhookEndpoint(h.deps.db, deliveries[0].endpoint_id, { deleted_at: new Date() });
    expectError(await api.post(`${base}/${deliveries[0].id}/resend`), 404, 'not_found');
    expect(await findDeliveries(h.deps.db, deliveries[0].event_id)).toHaveLength(1);
  });

  it.each([
    ['its subscription lapsed', { subscription_status: 'lapsed' as const }],
    ['its Partner API add-on is off', { partner_api_addon: false }],
  ])('holds the resend of an event of a restaurant whose %s, as fan-out holds its events', async (_name, lapse) => {
    const { owner, principal } = await arrangeOwner(h.deps.db);
    const endpoint = await arrangeEndpoint(h.deps.db, owner);
    const original = await arrangeEventDelivery(h.deps.db, endpoint.id, owner);
    await updateRestaurant(h.deps.db, owner.id, lapse);

    const res = await h.as(principal).post(`${base}/${original.id}/resend`);
    expect(res.status).toBe(201);
    const resent = zData(ZWebhookDelivery).parse(res.body).data;
    expect(resent).toMatchObject({ eventId: original.event_id, attempt: 1, status: 'held', nextAttemptAt: null });
    expect((await findDeliveries(h.deps.db, original.event_id)).at(-1)).toMatchObject({
      id: resent.id,
      status: 'held',
      next_attempt_at: null,
    });
  });

  it("resends to an integrator only while its grant with menu:read lasts, and holds while the restaurant's lapsed", async () => {
    const { owner: restaurant } = await arrangeOwner(h.deps.db);
    const integrator = await arrangeGrantedIntegrator(h.deps.db, restaurant.id);
    const api = h.as(integrator.principal);
    const endpoint = await arrangeEndpoint(h.deps.db, integrator.owner);
    const menuEvent = await arrangeEventDelivery(h.deps.db, endpoint.id, restaurant);
    const resent = await api.post(`${base}/${menuEvent.id}/resend`);
    expect(resent.body.data.status).toBe('pending');
    await recordSucceededDeliveries(h.deps.db, [{ id: resent.body.data.id, responseStatus: 204, durationMs: 5 }]);
    await updateRestaurant(h.deps.db, restaurant.id, { subscription_status: 'lapsed' });
    expect((await api.post(`${base}/${menuEvent.id}/resend`)).body.data.status).toBe('held');

    await integrator.revoke();
    expectError(await api.post(`${base}/${menuEvent.id}/resend`), 409, 'conflict');
    const assetsOnly = await arrangeGrantedIntegrator(h.deps.db, restaurant.id, ['assets:read']);
    const assetsEndpoint = await arrangeEndpoint(h.deps.db, assetsOnly.owner);
    const unseen = await arrangeEventDelivery(h.deps.db, assetsEndpoint.id, restaurant);
    expectError(await h.as(assetsOnly.principal).post(`${base}/${unseen.id}/resend`), 409, 'conflict');
  });
});
