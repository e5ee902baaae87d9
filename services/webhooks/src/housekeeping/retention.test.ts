import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStatus, insertOutboxEvent } from '@partner/db';
import { newId } from '@partner/http';
import { useTestDatabase } from '@partner/testing';
import { seedDeliveredHistory } from '../testing/history.js';
import { arrangeDelivery, arrangeEndpoint, arrangeOwner } from '../testing/webhook-fixtures.js';
import { lockEventRestaurants } from '../webhooks.repository.js';
import { Retention } from './retention.js';

const DAY_MS = 24 * 3600_000;
const POLICY = { deliveriesMs: 30 * DAY_MS, outboxMs: DAY_MS };

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);
const always = () => true;

async function arrangeRestaurantEndpoint() {
  const { owner } = await arrangeOwner(database.db);
  return { owner, endpoint: await arrangeEndpoint(database.db, owner) };
}

/** An event in the outbox, fanned out at `fannedOutAt` (null: not yet). */
async function arrangeEvent(restaurantId: string, fannedOutAt: Date | null, createdAt = fannedOutAt ?? ago(2 * DAY_MS)) {
  const id = newId('evt');
  await insertOutboxEvent(database.db, {
    id,
    type: 'item.updated',
    restaurantId,
    data: { itemId: newId('itm'), restaurantId, itemSlug: 'dish', itemName: 'Dish' },
  });
  await sql`update outbox_events set created_at = ${createdAt}, fanned_out_at = ${fannedOutAt} where id = ${id}`.execute(database.db);
  return id;
}

const deliveryIds = async () => new Set((await database.db.selectFrom('webhook_deliveries').select('id').execute()).map((row) => row.id));
const eventIds = async () => new Set((await database.db.selectFrom('outbox_events').select('id').execute()).map((row) => row.id));

describe('retention', () => {
  it('deletes finished deliveries past the delivery retention, and keeps recent and unfinished ones however old', async () => {
    const { owner, endpoint } = await arrangeRestaurantEndpoint();
    const at = (createdAt: Date, status: DeliveryStatus) => arrangeDelivery(database.db, endpoint.id, { createdAt, status });
    const old = ago(31 * DAY_MS);
    const finishedOld = await Promise.all((['succeeded', 'failed', 'expired', 'skipped'] as const).map((status) => at(old, status)));
    const unfinishedOld = await Promise.all((['pending', 'held'] as const).map((status) => at(old, status)));
    const recent = await Promise.all((['succeeded', 'failed'] as const).map((status) => at(ago(29 * DAY_MS), status)));
    // Its delivery is old and goes; the event goes with it.
    const eventOfOld = await arrangeEvent(owner.id, ago(31 * DAY_MS));
    const oldOfEvent = await arrangeDelivery(database.db, endpoint.id, { createdAt: old, eventId: eventOfOld });

    const purged = await new Retention(database.db, { ...POLICY, batchSize: 2 }).purge(now, always);

    const left = await deliveryIds();
    for (const row of [...finishedOld, oldOfEvent]) expect(left.has(row.id), row.status).toBe(false);
    for (const row of [...unfinishedOld, ...recent]) expect(left.has(row.id), row.status).toBe(true);
    expect(await eventIds()).not.toContain(eventOfOld);
    expect(purged.deliveries).toBe(5);
  });

  it('deletes fanned-out events past the outbox retention once no delivery refers to them; keeps the others', async () => {
    const { owner, endpoint } = await arrangeRestaurantEndpoint();
    const reachedNoOne = await arrangeEvent(owner.id, ago(2 * DAY_MS));
    const stillLogged = await arrangeEvent(owner.id, ago(40 * DAY_MS));
    await arrangeDelivery(database.db, endpoint.id, { createdAt: ago(31 * DAY_MS), eventId: stillLogged });
    await arrangeDelivery(database.db, endpoint.id, { createdAt: ago(DAY_MS), eventId: stillLogged, status: 'failed' });
    const fannedOutLately = await arrangeEvent(owner.id, ago(3600_000));
    const notFannedOut = await arrangeEvent(owner.id, null, ago(40 * DAY_MS));
    const behindIt = await arrangeEvent(owner.id, ago(2 * DAY_MS));
    const retention = new Retention(database.db, { ...POLICY, batchSize: 2 });

    await retention.purge(now, always);
    const left = await eventIds();
    expect(left.has(reachedNoOne)).toBe(false);
    for (const id of [notFannedOut, fannedOutLately, stillLogged]) expect(left.has(id)).toBe(true);

    // Later, the same retention (its walk goes on from where it stopped) takes what has aged since.
    await retention.purge(new Date(now.getTime() + 2 * DAY_MS), always);
    expect((await eventIds()).has(fannedOutLately)).toBe(false);
    expect((await eventIds()).has(stillLogged)).toBe(true);
    await retention.purge(new Date(now.getTime() + 30 * DAY_MS), always);
    expect((await eventIds()).has(stillLogged)).toBe(false);
    // The walk goes in outbox order and waits at an event not yet fanned out: what follows it waits too.
    expect((await eventIds()).has(notFannedOut)).toBe(true);
    expect((await eventIds()).has(behindIt)).toBe(true);
    await sql`update outbox_events set fanned_out_at = ${ago(2 * DAY_MS)} where id = ${notFannedOut}`.execute(database.db);
    await retention.purge(now, always);
    expect(await eventIds()).not.toContain(notFannedOut);
    expect(await eventIds()).not.toContain(behindIt);
  });

  it('leaves an event a resend holds (locked to add its delivery) in place', async () => {
    const { owner, endpoint } = await arrangeRestaurantEndpoint();
    const eventId = await arrangeEvent(owner.id, ago(31 * DAY_MS));
    const original = await arrangeDelivery(database.db, endpoint.id, { createdAt: ago(31 * DAY_MS), eventId });
    let release = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const resend = database.db.transaction().execute(async (tx) => {
      expect((await lockEventRestaurants(tx, [eventId])).get(eventId)).toBe(owner.id);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
      await arrangeDelivery(tx, endpoint.id, { createdAt: new Date(), eventId, status: 'pending' });
    });
    await isLocked;
    await new Retention(database.db, POLICY).purge(now, always);
    release();
    await resend;
    expect((await deliveryIds()).has(original.id)).toBe(false);
    expect((await eventIds()).has(eventId)).toBe(true);
  });

  it('stops between batches when told to', async () => {
    const { owner, endpoint } = await arrangeRestaurantEndpoint();
    await seedDeliveredHistory(database.db, {
      endpointId: endpoint.id,
      restaurantId: owner.id,
      count: 10,
      since: ago(40 * DAY_MS),
      until: ago(35 * DAY_MS),
    });
    let batches = 0;
    const purged = await new Retention(database.db, { ...POLICY, batchSize: 3 }).purge(now, () => batches++ < 2);
    expect(purged.deliveries).toBe(6);
  });
});
