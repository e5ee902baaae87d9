import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@partner/http';
import { useTestDatabase } from '@partner/testing';
import { startReceiver } from '../testing/receiver.js';
import { arrangeEndpoint, arrangeOwner, emitItemUpdated, testDispatcher } from '../testing/webhook-fixtures.js';
import { OutboxListener } from './outbox-listener.js';
import { WebhookSender } from './sender.js';

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

describe('a dispatcher woken by the outbox listener', () => {
  it('sends a new event at once, long before its next poll', async () => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    const dispatcher = testDispatcher(database.db, sender, 60_000);
    let wakes = 0;
    const listener = new OutboxListener({
      url: database.url,
      logger: silentLogger(),
      onWake: () => {
        wakes++;
        dispatcher.wake();
      },
    });
    try {
      const { owner } = await arrangeOwner(database.db);
      await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks'), enabledEvents: ['item.updated'] });
      dispatcher.start(60_000);
      listener.start();
      await expect.poll(() => wakes, { timeout: 5_000 }).toBe(1);

      const written = Date.now();
      const eventId = await emitItemUpdated(database.db, owner);
      await expect.poll(() => receiver.at('/hooks').length, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(Date.now() - written).toBeLessThan(2_000);
      expect(JSON.parse(receiver.at('/hooks')[0]!.body)).toMatchObject({ id: eventId, type: 'item.updated' });
    } finally {
      await listener.stop();
      await dispatcher.stop();
      await sender.close();
      await receiver.close();
    }
  });
});
