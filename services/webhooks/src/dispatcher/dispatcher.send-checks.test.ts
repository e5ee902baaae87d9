import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOutboxEvent, type Owner } from '@partner/db';
import { newId } from '@partner/http';
import { updateRestaurant, useTestDatabase } from '@partner/testing';
import { type Received, startReceiver } from '../testing/receiver.js';
import {
  arrangeEndpoint,
  arrangeEventDelivery,
  arrangeGrantedIntegrator,
  arrangeOwner,
  dispatcherWithClock,
  emitItemUpdated,
  findDeliveries,
  findEndpointRow,
} from '../testing/webhook-fixtures.js';
import { EVENT_GONE, insertDeliveries } from '../webhooks.repository.js';

// Reach and lapse are checked again right before each attempt goes out, not only at fan-out: a retry
// (attempts 2..8), a released or a resent delivery may be sent long after its event was fanned out.

const RETRY_BASE_MS = 60_000;

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

async function emitMenuUpdated(restaurant: Owner): Promise<string> {
  const id = newId('evt');
  await insertOutboxEvent(database.db, {
    id,
    type: 'menu.updated',
    restaurantId: restaurant.id,
    data: { restaurantId: restaurant.id, etag: '"v1"', changedItemIds: [], deletedItemIds: [], truncated: false },
  });
  return id;
}

/** The first request to a path fails (500), every later one is acknowledged. */
const failFirst = (received: Received, earlier: Received[]) => ({
  status: earlier.some((other) => other.path === received.path) ? 204 : 500,
});

describe('a retry of a restaurant that lapsed after fan-out', () => {
  it.each([
    ['its subscription lapsed', { subscription_status: 'lapsed' as const }, { subscription_status: 'active' as const }],
    ['its Partner API add-on was switched off', { partner_api_addon: false }, { partner_api_addon: true }],
  ])('is held, not sent, when %s; renewal releases it as the same attempt', async (_name, lapse, renewal) => {
    const receiver = await startReceiver(failFirst);
    const { clock, dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      const { owner } = await arrangeOwner(database.db);
      await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks') });
      const eventId = await emitMenuUpdated(owner);
      await dispatcher.tick();
      expect(receiver.received).toHaveLength(1);

      await updateRestaurant(database.db, owner.id, lapse);
      clock.now += RETRY_BASE_MS + 1_000;
      await dispatcher.tick();
      expect(receiver.received).toHaveLength(1);
      const [, retry] = await findDeliveries(database.db, eventId);
      expect(retry).toMatchObject({ attempt: 2, status: 'held', next_attempt_at: null, claimed_until: null });

      await updateRestaurant(database.db, owner.id, renewal);
      await dispatcher.tick();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.headers['x-service-delivery']).toBe(retry!.id);
      expect((await findDeliveries(database.db, eventId)).map((row) => [row.attempt, row.status])).toEqual([
        [1, 'failed'],
        [2, 'succeeded'],
      ]);
    } finally {
      await close();
      await receiver.close();
    }
  });

  it('expires after 72 hours held, like a delivery held at fan-out, and is never sent', async () => {
    const receiver = await startReceiver(failFirst);
    const { clock, dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      const { owner } = await arrangeOwner(database.db);
      await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks') });
      const eventId = await emitMenuUpdated(owner);
      await dispatcher.tick();
      await updateRestaurant(database.db, owner.id, { subscription_status: 'lapsed' });
      clock.now += RETRY_BASE_MS + 1_000;
      await dispatcher.tick();
      clock.now += 73 * 3600_000;
      await dispatcher.tick();
      await updateRestaurant(database.db, owner.id, { subscription_status: 'active' });
      await dispatcher.tick();
      expect(receiver.received).toHaveLength(1);
      expect((await findDeliveries(database.db, eventId)).map((row) => row.status)).toEqual(['failed', 'expired']);
    } finally {
      await close();
      await receiver.close();
    }
  });
});

describe('a retry to an integrator whose grant ended after fan-out', () => {
  // The loop fills a slot as soon as an attempt finishes, between rounds: without the round's sweep.
  // The grant ends after the last round began, so only the check made at the claim itself can see it.
  it.each([
    ['the grant was revoked', { regrantScopes: null }],
    ['the grant was replaced by one without menu:read', { regrantScopes: ['assets:read'] }],
  ])('is skipped, never sent, when %s, even in a slot filled between rounds', async (_name, { regrantScopes }) => {
    // The slow attempt ends when the test says, once the grant has ended and the retry is due.
    let endSlowAttempt = () => {};
    const slowAttemptEnds = new Promise<void>((resolve) => (endSlowAttempt = resolve));
    const receiver = await startReceiver((received, earlier) =>
      received.path === '/slow' ? { status: 204, until: slowAttemptEnds } : failFirst(received, earlier),
    );
    const { clock, dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      const { owner: restaurant } = await arrangeOwner(database.db);
      const integrator = await arrangeGrantedIntegrator(database.db, restaurant.id);
      await arrangeEndpoint(database.db, integrator.owner, { url: receiver.url('/integrator'), enabledEvents: ['menu.updated'] });
      await arrangeEndpoint(database.db, restaurant, { url: receiver.url('/slow'), enabledEvents: ['item.updated'] });
      const eventId = await emitMenuUpdated(restaurant);
      await dispatcher.tick();
      expect(receiver.at('/integrator')).toHaveLength(1);
      const [, retry] = await findDeliveries(database.db, eventId);
      expect(retry).toMatchObject({ attempt: 2, status: 'pending' });

      // A slow attempt of the restaurant's own holds a slot; its rounds run while the grant still holds.
      await emitItemUpdated(database.db, restaurant);
      dispatcher.start(60_000);
      await expect.poll(() => receiver.at('/slow').length, { timeout: 5_000, interval: 20 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await integrator.revoke();
      if (regrantScopes) await arrangeGrant(restaurant.id, integrator.owner.id, regrantScopes);
      // The retry falls due; the slow attempt then frees its slot and the loop claims again at once.
      clock.now += RETRY_BASE_MS + 1_000;
      endSlowAttempt();
      await expect
        .poll(async () => (await findDeliveries(database.db, eventId))[1]!.status, { timeout: 5_000, interval: 20 })
        .not.toBe('pending');
      await dispatcher.stop();
      expect((await findDeliveries(database.db, eventId))[1]).toMatchObject({
        status: 'skipped',
        error: 'the integrator no longer has an active grant',
      });
      expect(receiver.at('/integrator')).toHaveLength(1);
    } finally {
      await dispatcher.stop();
      await close();
      await receiver.close();
    }
  });
});

/** A new grant of the same integrator, as console writes one when a restaurant approves a link again. */
async function arrangeGrant(restaurantId: string, integratorOrgId: string, scopes: string[]) {
  await database.db
    .insertInto('grants')
    .values({ id: newId('grt'), restaurant_id: restaurantId, integrator_org_id: integratorOrgId, scopes, status: 'active' })
    .execute();
}

describe('an endpoint whose attempts in flight all answer 410 Gone', () => {
  it('is disabled once: one notice for its owner, however many attempts were in flight', async () => {
    const receiver = await startReceiver(() => ({ status: 410 }));
    const { owner } = await arrangeOwner(database.db);
    await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks'), enabledEvents: ['item.updated'] });
    for (let i = 0; i < 4; i++) await emitItemUpdated(database.db, owner);
    const { dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      expect((await dispatcher.tick()).attempted).toBe(4);
      const notices = await database.db.selectFrom('notifications').select('kind').where('owner_id', '=', owner.id).execute();
      expect(notices).toEqual([{ kind: 'webhook_endpoint_disabled' }]);
    } finally {
      await close();
      await receiver.close();
    }
  });
});

describe('the last attempt of an event to an endpoint that acknowledges other deliveries', () => {
  it('does not disable it for want of an acknowledgement this dispatcher holds but has not written yet', async () => {
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner, { url: 'http://127.0.0.1:9/unused' });
    // Event A failed 7 times over the last hours; its 8th attempt is due. Event B's first is due beside it.
    const a = await arrangeEventDelivery(database.db, endpoint.id, owner, { status: 'failed' });
    await sql`update webhook_deliveries set created_at = now() - interval '3 hours' where id = ${a.id}`.execute(database.db);
    await insertDeliveries(database.db, [
      { ...a, id: newId('whd'), attempt: 8, status: 'pending', next_attempt_at: new Date(), created_at: new Date() },
    ]);
    const b = await arrangeEventDelivery(database.db, endpoint.id, owner, { status: 'pending' });
    await database.db.updateTable('outbox_events').set({ fanned_out_at: new Date() }).where('id', 'in', [a.event_id, b.event_id]).execute();
    // B is acknowledged at once; A's last attempt fails a moment later.
    const receiver = await startReceiver((received) =>
      (JSON.parse(received.body) as { id: string }).id === a.event_id ? { status: 500, afterMs: 1_000 } : { status: 204 },
    );
    await database.db
      .updateTable('webhook_endpoints')
      .set({ url: receiver.url('/hooks') })
      .where('id', '=', endpoint.id)
      .execute();
    const { dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      expect((await dispatcher.tick()).attempted).toBe(2);
      expect(receiver.received).toHaveLength(2);
      expect((await findEndpointRow(database.db, endpoint.id)).status).toBe('active');
    } finally {
      await close();
      await receiver.close();
    }
  });
});

describe('an attempt whose event is gone', () => {
  it('is ended as skipped, not leased again and again', async () => {
    const receiver = await startReceiver();
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks') });
    const delivery = await arrangeEventDelivery(database.db, endpoint.id, owner, { status: 'pending' });
    await database.db.updateTable('outbox_events').set({ fanned_out_at: new Date() }).where('id', '=', delivery.event_id).execute();
    await database.db.deleteFrom('outbox_events').where('id', '=', delivery.event_id).execute();
    const { dispatcher, close } = dispatcherWithClock(database.db, { retryBaseMs: RETRY_BASE_MS });
    try {
      await dispatcher.tick();
      expect(receiver.received).toHaveLength(0);
      expect(await findDeliveries(database.db, delivery.event_id)).toEqual([
        expect.objectContaining({ id: delivery.id, status: 'skipped', claimed_until: null, error: EVENT_GONE }),
      ]);
    } finally {
      await close();
      await receiver.close();
    }
  });
});
