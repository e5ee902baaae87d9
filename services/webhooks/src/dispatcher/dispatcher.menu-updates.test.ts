import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEvent } from '@partner/contracts';
import { insertMenuChangeNote, insertOutboxEvent, menuEtag } from '@partner/db';
import { newId } from '@partner/http';
import { useTestDatabase } from '@partner/testing';
import { startReceiver } from '../testing/receiver.js';
import { arrangeEndpoint, arrangeGrantedIntegrator, arrangeOwner, dispatcherWithClock } from '../testing/webhook-fixtures.js';
import type { Dispatcher } from './dispatcher.js';

// menu.updated follows every change of the published menu, coalesced: a dish's (an item event) and one
// that touches no dish (a menu change note: a section added, the restaurant's shown fields edited).

const QUIET_MS = 5_000;

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

async function withDispatcher(test: (run: { dispatcher: Dispatcher; clock: { now: number } }) => Promise<void>) {
  const { clock, dispatcher, close } = dispatcherWithClock(database.db, { menuQuietMs: QUIET_MS });
  try {
    await test({ dispatcher, clock });
  } finally {
    await close();
  }
}

describe('a menu change note', () => {
  it('is delivered to no endpoint, and brings one menu.updated to the restaurant and its integrators once the menu is quiet', async () => {
    const receiver = await startReceiver();
    try {
      const { owner } = await arrangeOwner(database.db);
      const integrator = await arrangeGrantedIntegrator(database.db, owner.id);
      // Every event type, so that a delivered note would be seen.
      await arrangeEndpoint(database.db, owner, { url: receiver.url('/restaurant') });
      await arrangeEndpoint(database.db, integrator.owner, { url: receiver.url('/integrator'), enabledEvents: ['menu.updated'] });
      await insertMenuChangeNote(database.db, { id: newId('evt'), restaurantId: owner.id });
      await insertMenuChangeNote(database.db, { id: newId('evt'), restaurantId: owner.id });

      await withDispatcher(async ({ dispatcher, clock }) => {
        await dispatcher.tick();
        expect(receiver.received).toHaveLength(0);
        clock.now += QUIET_MS;
        await dispatcher.tick();
        await dispatcher.tick();
      });

      const { etag } = await menuEtag(database.db, owner.id);
      for (const path of ['/restaurant', '/integrator']) {
        expect(receiver.at(path)).toHaveLength(1);
        const event = ZEvent.parse(JSON.parse(receiver.at(path)[0]!.body));
        expect(event).toMatchObject({
          type: 'menu.updated',
          data: { restaurantId: owner.id, etag, changedItemIds: [], deletedItemIds: [], truncated: false },
        });
      }
    } finally {
      await receiver.close();
    }
  });

  it("joins the burst of the restaurant's dish changes: one menu.updated for both", async () => {
    const receiver = await startReceiver();
    try {
      const { owner } = await arrangeOwner(database.db);
      await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks'), enabledEvents: ['menu.updated'] });
      const itemId = newId('itm');
      await insertOutboxEvent(database.db, {
        id: newId('evt'),
        type: 'item.updated',
        restaurantId: owner.id,
        data: { itemId, restaurantId: owner.id, itemSlug: 'soup', itemName: 'Soup' },
        touchesPublishedMenu: true,
      });
      await insertMenuChangeNote(database.db, { id: newId('evt'), restaurantId: owner.id });

      await withDispatcher(async ({ dispatcher, clock }) => {
        await dispatcher.tick();
        clock.now += QUIET_MS;
        await dispatcher.tick();
        await dispatcher.tick();
      });

      expect(receiver.received).toHaveLength(1);
      const event = ZEvent.parse(JSON.parse(receiver.received[0]!.body));
      expect(event).toMatchObject({ type: 'menu.updated', data: { changedItemIds: [itemId], deletedItemIds: [] } });
    } finally {
      await receiver.close();
    }
  });
});
