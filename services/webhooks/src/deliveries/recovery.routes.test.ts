import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@partner/auth';
import { ZWebhookEndpoint, ZWebhookRecovery, zData, type TEventType } from '@partner/contracts';
import { type DeliveryStatus, insertOutboxEvent, type Owner } from '@partner/db';
import { newId } from '@partner/http';
import { updateRestaurant } from '@partner/testing';
import { type Route, startWebhooksHarness, type WebhooksHarness } from '../testing/app-harness.js';
import { expectError, expectGatewayOnly } from '../testing/http-expectations.js';
import { arrangeDelivery, arrangeEndpoint, arrangeGrantedIntegrator, arrangeOwner, findEndpointRow } from '../testing/webhook-fixtures.js';
import { MAX_RECOVERED_EVENTS } from './recovery.js';

const recoverPath = (id: string) => `/v1/partner/webhook-endpoints/${id}/recover`;
const operatorRecoverPath = (id: string) => `/internal/webhook-endpoints/${id}/recover`;
const enablePath = (id: string) => `/internal/webhook-endpoints/${id}/enable`;
const missingEndpoint = 'we_missing000000000000000';
const operator: Principal = { kind: 'operator' };
const HOUR = 3600_000;

let h: WebhooksHarness;
beforeAll(async () => {
  h = await startWebhooksHarness();
});
afterAll(() => h.close());

const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR);

/**
 * An event of the restaurant in the outbox and its attempts to the endpoint, oldest first, an hour
 * apart from `firstAt` (the dispatcher writes one row per attempt).
 */
async function arrangeEvent(
  endpointId: string,
  restaurantId: string,
  attempts: DeliveryStatus[],
  options: { firstAt?: Date; type?: TEventType; integratorOrgId?: string } = {},
) {
  const eventId = newId('evt');
  const type = options.type ?? 'item.updated';
  const data = type.startsWith('grant.')
    ? { grantId: newId('grt'), restaurantId, integratorOrgId: options.integratorOrgId! }
    : { itemId: newId('itm'), restaurantId, itemSlug: 'soup', itemName: 'Soup' };
  await insertOutboxEvent(h.deps.db, {
    id: eventId,
    type,
    restaurantId,
    integratorOrgId: options.integratorOrgId ?? null,
    data,
  });
  const firstAt = (options.firstAt ?? hoursAgo(5)).getTime();
  const rows = [];
  for (const [i, status] of attempts.entries()) {
    rows.push(await arrangeDelivery(h.deps.db, endpointId, { createdAt: new Date(firstAt + i * HOUR), eventId, eventType: type, status }));
  }
  return { eventId, rows };
}

const deliveriesTo = (endpointId: string) =>
  h.deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The deliveries a recovery made: attempt 1, made after `after`, by event id. */
async function newDeliveries(endpointId: string, after: Date) {
  return (await deliveriesTo(endpointId)).filter((row) => row.created_at.getTime() >= after.getTime());
}

async function ownerEndpoint(options: { disabledReason?: string } = {}) {
  const { owner, principal } = await arrangeOwner(h.deps.db);
  const endpoint = await arrangeEndpoint(h.deps.db, owner, options);
  return { owner, principal, endpoint, api: h.as(principal) };
}

describe('who may call', () => {
  const routes: Route[] = [['post', recoverPath(missingEndpoint)]];
  it.each(routes)('%s %s lets in only the gateway token for webhooks', async (...route) => {
    const { principal } = await arrangeOwner(h.deps.db);
    await expectGatewayOnly(h, route, principal);
  });

  it('the operator route refuses a key, and the Partner API route refuses the operator', async () => {
    const { principal, endpoint } = await ownerEndpoint();
    expectError(
      await h
        .as(principal)
        .post(operatorRecoverPath(endpoint.id))
        .send({ since: hoursAgo(1).toISOString() }),
      401,
      'unauthorized',
    );
    expectError(
      await h
        .as(operator)
        .post(recoverPath(endpoint.id))
        .send({ since: hoursAgo(1).toISOString() }),
      401,
      'invalid_api_key',
    );
  });
});

describe('POST /v1/partner/webhook-endpoints/:id/recover', () => {
  it('re-sends every failed, expired or skipped event once, with its event id; not what succeeded or is on its way', async () => {
    const { owner, api, endpoint } = await ownerEndpoint();
    const failedThrice = await arrangeEvent(endpoint.id, owner.id, ['failed', 'failed', 'failed']);
    const skipped = await arrangeEvent(endpoint.id, owner.id, ['skipped']);
    const expired = await arrangeEvent(endpoint.id, owner.id, ['expired']);
    const succeededLate = await arrangeEvent(endpoint.id, owner.id, ['failed', 'failed', 'succeeded']);
    const succeeded = await arrangeEvent(endpoint.id, owner.id, ['succeeded']);
    const retrying = await arrangeEvent(endpoint.id, owner.id, ['failed', 'pending']);
    const before = new Date();

    const since = hoursAgo(6).toISOString();
    const res = await api.post(recoverPath(endpoint.id)).send({ since });
    expect(res.status).toBe(202);
    const recovery = zData(ZWebhookRecovery.strict()).parse(res.body).data;
    expect(recovery).toEqual({ endpointId: endpoint.id, since, until: expect.any(String), queued: 3, held: 0, truncated: false });
    expect(new Date(recovery.until).getTime()).toBeGreaterThanOrEqual(before.getTime());

    const made = await newDeliveries(endpoint.id, before);
    expect(made.map((row) => row.event_id).sort()).toEqual([failedThrice.eventId, skipped.eventId, expired.eventId].sort());
    for (const row of made) {
      expect(row).toMatchObject({ endpoint_id: endpoint.id, attempt: 1, status: 'pending', next_attempt_at: expect.any(Date) });
      expect(row.id).toMatch(/^whd_/);
    }
    expect(made.map((row) => row.event_type).sort()).toEqual(['item.updated', 'item.updated', 'item.updated']);
    const untouched = [succeededLate, succeeded, retrying].map((event) => event.eventId);
    expect(made.some((row) => untouched.includes(row.event_id))).toBe(false);

    // Done again, it finds every event on its way already.
    const again = await api.post(recoverPath(endpoint.id)).send({ since });
    expect(again.body.data).toMatchObject({ queued: 0, truncated: false });
    expect(await newDeliveries(endpoint.id, before)).toHaveLength(3);
  });

  it('takes the deliveries made in [since, until): since included, until left out', async () => {
    const { owner, api, endpoint } = await ownerEndpoint();
    const now = Date.now();
    const at = (hours: number) => new Date(now - hours * HOUR);
    const tooEarly = await arrangeEvent(endpoint.id, owner.id, ['failed'], { firstAt: at(10) });
    const atSince = await arrangeEvent(endpoint.id, owner.id, ['failed'], { firstAt: at(8) });
    const inside = await arrangeEvent(endpoint.id, owner.id, ['skipped'], { firstAt: at(6) });
    const atUntil = await arrangeEvent(endpoint.id, owner.id, ['failed'], { firstAt: at(4) });
    // An event whose first attempt is before the range and last one inside it is in the range.
    const straddling = await arrangeEvent(endpoint.id, owner.id, ['failed', 'failed', 'failed'], { firstAt: at(9.5) });
    const before = new Date();

    const res = await api.post(recoverPath(endpoint.id)).send({ since: at(8).toISOString(), until: at(4).toISOString() });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ queued: 3, since: at(8).toISOString(), until: at(4).toISOString() });
    const recovered = (await newDeliveries(endpoint.id, before)).map((row) => row.event_id).sort();
    expect(recovered).toEqual([atSince.eventId, inside.eventId, straddling.eventId].sort());
    expect(recovered).not.toContain(tooEarly.eventId);
    expect(recovered).not.toContain(atUntil.eventId);
  });

  it('accepts timestamps with an offset, and answers them in UTC', async () => {
    const { owner, api, endpoint } = await ownerEndpoint();
    await arrangeEvent(endpoint.id, owner.id, ['failed'], { firstAt: hoursAgo(2) });
    const since = hoursAgo(3);
    const withOffset = new Date(since.getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00');
    const res = await api.post(recoverPath(endpoint.id)).send({ since: withOffset });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ since: since.toISOString(), queued: 1 });
  });

  it("answers 404 for another owner's endpoint exactly as for a missing or deleted one, whatever the body, and sends nothing", async () => {
    const mine = await ownerEndpoint();
    const theirs = await ownerEndpoint();
    await arrangeEvent(theirs.endpoint.id, theirs.owner.id, ['failed']);
    const deleted = await arrangeEndpoint(h.deps.db, mine.owner);
    await h.deps.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).where('id', '=', deleted.id).execute();
    const count = (await deliveriesTo(theirs.endpoint.id)).length;
    const body = { since: hoursAgo(6).toISOString() };
    const answers = [
      await mine.api.post(recoverPath(theirs.endpoint.id)).send(body),
      await mine.api.post(recoverPath(theirs.endpoint.id)),
      await mine.api.post(recoverPath(missingEndpoint)).send(body),
      await mine.api.post(recoverPath(deleted.id)).send(body),
    ];
    for (const res of answers) expectError(res, 404, 'not_found');
    expect(new Set(answers.map((res) => res.body.error.message)).size).toBe(1);
    expect(await deliveriesTo(theirs.endpoint.id)).toHaveLength(count);
  });

  it('refuses a disabled endpoint with 409 endpoint_disabled, telling to re-enable it first', async () => {
    const { owner, api, endpoint } = await ownerEndpoint({ disabledReason: '8 delivery attempts failed.' });
    await arrangeEvent(endpoint.id, owner.id, ['skipped']);
    const res = await api.post(recoverPath(endpoint.id)).send({ since: hoursAgo(6).toISOString() });
    expectError(res, 409, 'endpoint_disabled');
    expect(res.body.error.message).toMatch(/re-enable/i);
    expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
  });

  it.each([
    ['no body', undefined, 'since'],
    ['no since', { until: new Date().toISOString() }, 'since'],
    ['a since that is not a timestamp', { since: 'yesterday' }, 'since'],
    ['a since without a time zone', { since: '2026-11-20T10:00:00' }, 'since'],
    ['a since in the future', { since: new Date(Date.now() + 60_000).toISOString() }, 'since'],
    ['a since older than 30 days', { since: new Date(Date.now() - 31 * 24 * HOUR).toISOString() }, 'since'],
    ['an until that is not a timestamp', { since: hoursAgo(2).toISOString(), until: 42 }, 'until'],
    ['an until before since', { since: hoursAgo(2).toISOString(), until: hoursAgo(3).toISOString() }, 'until'],
    ['an until equal to since', { since: hoursAgo(2).toISOString(), until: hoursAgo(2).toISOString() }, 'until'],
    ['an unknown field', { since: hoursAgo(2).toISOString(), status: 'failed' }, 'status'],
  ])('refuses %s (400 naming the field)', async (_name, body, param) => {
    const { owner, api, endpoint } = await ownerEndpoint();
    await arrangeEvent(endpoint.id, owner.id, ['failed']);
    const req = api.post(recoverPath(endpoint.id));
    expectError(await (body === undefined ? req : req.send(body)), 400, 'invalid_request', param);
    expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
  });

  it('accepts a since 29 days back', async () => {
    const { api, endpoint } = await ownerEndpoint();
    const res = await api.post(recoverPath(endpoint.id)).send({ since: new Date(Date.now() - 29 * 24 * HOUR).toISOString() });
    expect(res.status).toBe(202);
    expect(res.body.data.queued).toBe(0);
  });

  it.each([
    ['its subscription lapsed', { subscription_status: 'lapsed' as const }],
    ['its Partner API add-on is off', { partner_api_addon: false }],
  ])('holds the recovered events of a restaurant whose %s, as a resend does', async (_name, lapse) => {
    const { owner, api, endpoint } = await ownerEndpoint();
    const event = await arrangeEvent(endpoint.id, owner.id, ['failed']);
    await updateRestaurant(h.deps.db, owner.id, lapse);
    const before = new Date();
    const res = await api.post(recoverPath(endpoint.id)).send({ since: hoursAgo(6).toISOString() });
    expect(res.body.data).toMatchObject({ queued: 1, held: 1 });
    expect(await newDeliveries(endpoint.id, before)).toEqual([
      expect.objectContaining({ event_id: event.eventId, status: 'held', next_attempt_at: null, attempt: 1 }),
    ]);
  });

  it('re-sends to an integrator only the events of restaurants it still holds a grant with menu:read on, and its own grant events', async () => {
    const granted = await arrangeOwner(h.deps.db);
    const revoked = await arrangeOwner(h.deps.db);
    const assetsOnly = await arrangeOwner(h.deps.db);
    const lapsed = await arrangeOwner(h.deps.db);
    const integrator = await arrangeGrantedIntegrator(h.deps.db, granted.owner.id);
    const orgId = integrator.owner.id;
    const endpoint = await arrangeEndpoint(h.deps.db, integrator.owner);
    // The same organisation's other grants, written as console writes them.
    const grantOn = async (restaurant: Owner, scopes: string[], status: 'active' | 'revoked') =>
      h.deps.db
        .insertInto('grants')
        .values({ id: newId('grt'), restaurant_id: restaurant.id, integrator_org_id: orgId, scopes, status })
        .execute();
    await grantOn(revoked.owner, ['menu:read'], 'revoked');
    await grantOn(assetsOnly.owner, ['assets:read'], 'active');
    await grantOn(lapsed.owner, ['menu:read'], 'active');
    await updateRestaurant(h.deps.db, lapsed.owner.id, { subscription_status: 'lapsed' });

    const ofGranted = await arrangeEvent(endpoint.id, granted.owner.id, ['failed']);
    await arrangeEvent(endpoint.id, revoked.owner.id, ['failed']);
    await arrangeEvent(endpoint.id, assetsOnly.owner.id, ['skipped']);
    const ofLapsed = await arrangeEvent(endpoint.id, lapsed.owner.id, ['failed']);
    const grantRevoked = await arrangeEvent(endpoint.id, revoked.owner.id, ['failed'], { type: 'grant.revoked', integratorOrgId: orgId });
    const before = new Date();

    const res = await h
      .as(integrator.principal)
      .post(recoverPath(endpoint.id))
      .send({ since: hoursAgo(6).toISOString() });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ queued: 3, held: 1 });
    const made = await newDeliveries(endpoint.id, before);
    expect(Object.fromEntries(made.map((row) => [row.event_id, row.status]))).toEqual({
      [ofGranted.eventId]: 'pending',
      [ofLapsed.eventId]: 'held',
      [grantRevoked.eventId]: 'pending',
    });
  });

  it('queues each event once when recoveries of one endpoint run at the same time', async () => {
    const { owner, api, endpoint } = await ownerEndpoint();
    const events = [];
    for (let i = 0; i < 20; i++) events.push(await arrangeEvent(endpoint.id, owner.id, ['failed']));
    const before = new Date();
    const body = { since: hoursAgo(6).toISOString() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(recoverPath(endpoint.id)).send(body)));
    expect(answers.map((res) => res.status)).toEqual([202, 202, 202, 202, 202]);
    expect(answers.map((res) => (res.body as { data: { queued: number } }).data.queued).sort((a, b) => b - a)).toEqual([20, 0, 0, 0, 0]);
    const made = await newDeliveries(endpoint.id, before);
    expect(made.map((row) => row.event_id).sort()).toEqual(events.map((event) => event.eventId).sort());
  });

  it('replays its answer for a retry with the same Idempotency-Key, queueing nothing more', async () => {
    const { owner, principal, endpoint } = await ownerEndpoint();
    await arrangeEvent(endpoint.id, owner.id, ['failed']);
    const body = { since: hoursAgo(6).toISOString() };
    const send = () => h.as(principal).post(recoverPath(endpoint.id)).set('Idempotency-Key', 'recover-1').send(body);
    const first = await send();
    const second = await send();
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(await deliveriesTo(endpoint.id)).toHaveLength(2);
  });

  it(`takes at most ${MAX_RECOVERED_EVENTS} events a request, oldest first, says so, and takes the rest when asked again`, async () => {
    const { owner, api, endpoint } = await ownerEndpoint();
    const extra = 5;
    const createdAt = hoursAgo(2);
    // Bulk, as the dispatcher would have left them after an outage: one failed attempt per event.
    await sql`
      with events as (
        insert into outbox_events (id, type, restaurant_id, data)
        select 'evt_bulk' || lpad(n::text, 6, '0') || ${endpoint.id}, 'item.updated', ${owner.id}, '{}'::jsonb
        from generate_series(1, ${MAX_RECOVERED_EVENTS + extra}) n
        returning id
      )
      insert into webhook_deliveries (id, event_id, event_type, endpoint_id, attempt, status, created_at)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), id, 'item.updated', ${endpoint.id}, 8, 'failed', ${createdAt}
      from events
    `.execute(h.deps.db);
    const body = { since: hoursAgo(3).toISOString() };
    const first = await api.post(recoverPath(endpoint.id)).send(body);
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ queued: MAX_RECOVERED_EVENTS, truncated: true });
    const left = await h.deps.db
      .selectFrom('webhook_deliveries as d')
      .select('d.event_id')
      .where('d.endpoint_id', '=', endpoint.id)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as p')
              .select('p.id')
              .whereRef('p.event_id', '=', 'd.event_id')
              .where('p.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('d.event_id')
      .execute();
    // The newest events are the ones left for the next request.
    expect(left.map((row) => row.event_id.slice(0, 14))).toEqual([
      'evt_bulk010001',
      'evt_bulk010002',
      'evt_bulk010003',
      'evt_bulk010004',
      'evt_bulk010005',
    ]);
    const second = await api.post(recoverPath(endpoint.id)).send(body);
    expect(second.status).toBe(202);
    expect(second.body.data).toMatchObject({ queued: extra, truncated: false });
    const { count } = await h.deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.count<string>('event_id').distinct().as('count'))
      .where('endpoint_id', '=', endpoint.id)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(MAX_RECOVERED_EVENTS + extra);
  }, 60_000);
});

describe('the operator routes (console)', () => {
  it("recovers any owner's endpoint", async () => {
    const { owner, endpoint } = await ownerEndpoint();
    const event = await arrangeEvent(endpoint.id, owner.id, ['failed', 'failed']);
    const before = new Date();
    const res = await h
      .as(operator)
      .post(operatorRecoverPath(endpoint.id))
      .send({ since: hoursAgo(6).toISOString() });
    expect(res.status).toBe(202);
    expect(zData(ZWebhookRecovery).parse(res.body).data).toMatchObject({ endpointId: endpoint.id, queued: 1, truncated: false });
    expect((await newDeliveries(endpoint.id, before)).map((row) => row.event_id)).toEqual([event.eventId]);
  });

  it('refuses a disabled endpoint (409), an unknown one (404) and a bad range (400)', async () => {
    const { endpoint } = await ownerEndpoint({ disabledReason: 'The endpoint answered 410 Gone.' });
    const body = { since: hoursAgo(1).toISOString() };
    expectError(await h.as(operator).post(operatorRecoverPath(endpoint.id)).send(body), 409, 'endpoint_disabled');
    expectError(await h.as(operator).post(operatorRecoverPath(missingEndpoint)).send(body), 404, 'not_found');
    expectError(await h.as(operator).post(operatorRecoverPath(endpoint.id)).send({}), 400, 'invalid_request', 'since');
  });

  it('re-enables and recovers in one go with recoverSince', async () => {
    const { owner, endpoint } = await ownerEndpoint({ disabledReason: '8 delivery attempts failed.' });
    const failed = await arrangeEvent(endpoint.id, owner.id, ['failed', 'failed', 'failed']);
    const skipped = await arrangeEvent(endpoint.id, owner.id, ['skipped']);
    await arrangeEvent(endpoint.id, owner.id, ['succeeded']);
    const before = new Date();
    const since = hoursAgo(6).toISOString();
    const res = await h.as(operator).post(enablePath(endpoint.id)).send({ recoverSince: since });
    expect(res.status).toBe(200);
    expect(ZWebhookEndpoint.parse(res.body.data)).toMatchObject({ id: endpoint.id, status: 'active', disabledReason: null });
    expect(ZWebhookRecovery.parse(res.body.meta.recovery)).toMatchObject({ endpointId: endpoint.id, since, queued: 2, held: 0 });
    expect((await newDeliveries(endpoint.id, before)).map((row) => row.event_id).sort()).toEqual([failed.eventId, skipped.eventId].sort());
  });

  it('re-enables without recovering when no body is sent, and refuses a bad recoverSince before enabling', async () => {
    const { owner, endpoint } = await ownerEndpoint({ disabledReason: '8 delivery attempts failed.' });
    await arrangeEvent(endpoint.id, owner.id, ['failed']);
    const refused = await h
      .as(operator)
      .post(enablePath(endpoint.id))
      .send({ recoverSince: new Date(Date.now() + HOUR).toISOString() });
    expectError(refused, 400, 'invalid_request', 'recoverSince');
    expect((await findEndpointRow(h.deps.db, endpoint.id)).status).toBe('disabled');

    const res = await h.as(operator).post(enablePath(endpoint.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.objectContaining({ status: 'active' }) });
    expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
  });
});
