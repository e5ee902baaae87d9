import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '@partner/db';
import { useTestDatabase } from '@partner/testing';
import { startReceiver } from '../testing/receiver.js';
import { arrangeEndpoint, arrangeOwner, emitItemUpdated, testDispatcher } from '../testing/webhook-fixtures.js';
import { SEND_TIMEOUT_MS, WebhookSender } from './sender.js';

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/** Never resolves: an answer that waits on it never comes. */
const never = new Promise<void>(() => {});

/**
 * The test receiver, whose `/slow/*` paths never answer (their attempts hold a slot until the sender's
 * time limit), noting when the first of them arrived, and whose `/fast` path notes each event's arrival.
 */
async function startReceivers() {
  const arrivals = new Map<string, number>();
  const slow = { firstArrivedAt: Infinity };
  const receiver = await startReceiver((received) => {
    if (received.path.startsWith('/slow/')) {
      slow.firstArrivedAt = Math.min(slow.firstArrivedAt, Date.now());
      return { status: 204, until: never };
    }
    arrivals.set((JSON.parse(received.body) as { id: string }).id, Date.now());
    return { status: 204 };
  });
  return { ...receiver, arrivals, slow };
}

const endpointOf = (owner: Owner, url: string) => arrangeEndpoint(database.db, owner, { url, enabledEvents: ['item.updated'] });

describe('the dispatcher', () => {
  it("delivers one owner's fast endpoint while three other owners' 100 endpoints hold every attempt until its time limit", async () => {
    const receivers = await startReceivers();
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    const dispatcher = testDispatcher(database.db, sender, 60_000);
    try {
      const crowded = await Promise.all([1, 2, 3].map(() => arrangeOwner(database.db)));
      const { owner: quiet } = await arrangeOwner(database.db);
      for (const { owner } of crowded) for (let i = 0; i < 100; i++) await endpointOf(owner, receivers.url(`/slow/${i}`));
      await endpointOf(quiet, receivers.url('/fast'));

      // Three events of each crowded owner: 900 attempts that each hold a connection until the sender's
      // time limit, more than the dispatcher sends and claims ahead at once.
      for (const { owner } of crowded) for (let i = 0; i < 3; i++) await emitItemUpdated(database.db, owner);
      dispatcher.start(50);
      const emitted: string[] = [];
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        emitted.push(await emitItemUpdated(database.db, quiet));
      }
      await expect.poll(() => receivers.arrivals.size, { timeout: 15_000, interval: 50 }).toBe(emitted.length);
      // Every one arrived while all the crowded owners' attempts were still in flight: none had waited for
      // a slot they held (the first of those frees at the time limit of the first sent, which arrived
      // at firstArrivedAt; half a second spares the time between its sending and its arrival).
      const lastArrival = Math.max(...emitted.map((id) => receivers.arrivals.get(id)!));
      expect(lastArrival).toBeLessThan(receivers.slow.firstArrivedAt + SEND_TIMEOUT_MS - 500);
    } finally {
      // The slow attempts fail at once when their connections close, so the dispatcher stops promptly.
      await receivers.close();
      await dispatcher.stop();
      await sender.close();
    }
  }, 30_000);
});
