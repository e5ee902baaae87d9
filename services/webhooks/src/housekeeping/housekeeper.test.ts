import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@partner/http';
import { useTestDatabase } from '@partner/testing';
import { Housekeeper } from './housekeeper.js';
import { WebhookSender } from '../dispatcher/sender.js';
import { seedDeliveredHistory } from '../testing/history.js';
import { startReceiver } from '../testing/receiver.js';
import { arrangeDelivery, arrangeEndpoint, arrangeOwner, emitItemUpdated, testDispatcher } from '../testing/webhook-fixtures.js';

// Releasing held deliveries (and the rest of the housekeeping) runs on a cadence of its own, not in
// every round of the dispatcher's loop.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

describe('the running dispatcher', () => {
  it('releases a held delivery of an active restaurant at its housekeeping, not in its rounds', { timeout: 20_000 }, async () => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    const running = (housekeepingMs: number) => testDispatcher(database.db, sender, 60_000, { housekeepingMs });
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks') });
    const arrangeHeld = async () => {
      const eventId = await emitItemUpdated(database.db, owner);
      return arrangeDelivery(database.db, endpoint.id, { createdAt: new Date(), eventId, status: 'held' });
    };
    const sent = (deliveryId: string) => receiver.received.some((entry) => entry.headers['x-service-delivery'] === deliveryId);

    const slow = running(3_600_000);
    try {
      const first = await arrangeHeld();
      slow.start(10);
      // The housekeeping runs once at start: it released the first.
      await expect.poll(() => sent(first.id), { timeout: 5_000 }).toBe(true);
      const later = await arrangeHeld();
      // Rounds go on (every 10 ms: the later event's fan-out delivery arrives) without releasing it.
      await expect.poll(() => receiver.received.filter((entry) => entry.body.includes(later.event_id)).length, { timeout: 5_000 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sent(later.id)).toBe(false);
    } finally {
      await slow.stop();
    }

    const quick = running(200);
    try {
      const held = await arrangeHeld();
      quick.start(10);
      await expect.poll(() => sent(held.id), { timeout: 5_000 }).toBe(true);
    } finally {
      await quick.stop();
      await sender.close();
      await receiver.close();
    }
  });
});

describe('the housekeeping', () => {
  it('deletes at most 20 batches a pass, so a long backlog of history never holds up releases and expiries', async () => {
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner);
    const DAY_MS = 24 * 3600_000;
    const now = new Date();
    const since = new Date(now.getTime() - 40 * DAY_MS);
    await seedDeliveredHistory(database.db, {
      endpointId: endpoint.id,
      restaurantId: owner.id,
      count: 25,
      since,
      until: new Date(now.getTime() - 35 * DAY_MS),
    });
    const housekeeper = new Housekeeper({
      db: database.db,
      logger: silentLogger(),
      now: () => now,
      holdMs: 72 * 3600_000,
      retention: { deliveriesMs: 30 * DAY_MS, outboxMs: DAY_MS, batchSize: 1 },
    });
    expect((await housekeeper.run()).deliveries).toBe(20);
    expect((await housekeeper.run()).deliveries).toBe(5);
  });
});
