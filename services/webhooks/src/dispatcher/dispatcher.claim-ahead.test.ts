import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@partner/http';
import { useTestDatabase } from '@partner/testing';
import {
  arrangeDelivery,
  arrangeEndpoint,
  arrangeOwner,
  emitItemUpdated,
  findDeliveries,
  TEST_SEALING_KEYS,
} from '../testing/webhook-fixtures.js';
import { type Answer, startReceiver } from '../testing/receiver.js';
import { releaseClaimedDeliveries, replaceAbandonedAttempts } from '../webhooks.repository.js';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';
import { WebhookSender } from './sender.js';

const ANSWER_AFTER_MS = 1_000;
/** How long an expected outcome may take on a loaded machine. */
const SOON = { timeout: 5_000, interval: 20 };

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/**
 * What a test opened, closed after it: receivers first (attempts in flight to them end at once), then
 * dispatchers, then senders. Closing twice is harmless.
 */
const opened = { receivers: [] as { close: () => Promise<void> }[], dispatchers: [] as Dispatcher[], senders: [] as WebhookSender[] };
afterEach(async () => {
  await Promise.all(opened.receivers.splice(0).map((receiver) => receiver.close()));
  await Promise.all(opened.dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
  await Promise.all(opened.senders.splice(0).map((sender) => sender.close()));
});

/**
 * The test receiver at /hooks, acknowledging each event (204) a second after it arrives unless `answer`
 * says otherwise (`until` a promise the test resolves); `arrived` lists the events' ids in order of
 * arrival, and `onArrival` is told each attempt's delivery id as it comes.
 */
async function startSlowReceiver(
  onArrival: (deliveryId: string) => void = () => {},
  answer: Partial<Pick<Answer, 'status' | 'afterMs' | 'until'>> = { afterMs: ANSWER_AFTER_MS },
) {
  const receiver = await startReceiver((received) => {
    onArrival(received.headers['x-service-delivery'] as string);
    return { status: 204, ...answer };
  });
  opened.receivers.push(receiver);
  return {
    url: receiver.url('/hooks'),
    get arrived(): string[] {
      return receiver.received.map((entry) => (JSON.parse(entry.body) as { id: string }).id);
    },
  };
}

/** An owner with one endpoint at `url`, three of its events in the outbox, and their attempts as they stand. */
async function threeEventsTo(url: string) {
  const { owner } = await arrangeOwner(database.db);
  await arrangeEndpoint(database.db, owner, { url, enabledEvents: ['item.updated'] });
  const events: string[] = [];
  for (let i = 0; i < 3; i++) events.push(await emitItemUpdated(database.db, owner));
  const attemptsOf = async () => (await Promise.all(events.map((id) => findDeliveries(database.db, id)))).flat();
  return { events, attemptsOf };
}

/** One attempt in flight per owner, up to four claimed ahead of a free slot. */
function dispatcherFor(sender: WebhookSender, options: Partial<DispatcherOptions> = {}): Dispatcher {
  const dispatcher = new Dispatcher({
    db: database.db,
    logger: silentLogger(),
    sender,
    sealing: TEST_SEALING_KEYS,
    now: () => new Date(),
    retryBaseMs: 60_000,
    concurrency: 4,
    ownerConcurrency: 1,
    claimAhead: 4,
    ...options,
  });
  opened.dispatchers.push(dispatcher);
  return dispatcher;
}

/** A sender to the test's loopback receivers. */
function newSender(): WebhookSender {
  const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
  opened.senders.push(sender);
  return sender;
}

describe('attempts claimed ahead of a free slot', () => {
  it('wait in the dispatcher, and are given back as it stops, for another dispatcher to send at once', async () => {
    // The first answer is held until the others have been seen leased, and given back, without it.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startSlowReceiver(() => {}, { until: released });
    const sender = newSender();
    const first = dispatcherFor(sender);
    const second = dispatcherFor(sender);
    const { events, attemptsOf } = await threeEventsTo(receiver.url);

    first.start(20);
    await expect.poll(() => receiver.arrived.length, SOON).toBe(1);
    // The owner's one slot is busy: the other two are leased to this dispatcher, waiting in it.
    await expect
      .poll(async () => (await attemptsOf()).filter((row) => row.status === 'pending' && row.claimed_until !== null).length, SOON)
      .toBe(3);

    const stopping = first.stop();
    // Given back at once, not after the attempt in flight: its answer has not come yet.
    await expect
      .poll(async () => (await attemptsOf()).filter((row) => row.status === 'pending' && row.claimed_until === null).length, SOON)
      .toBe(2);
    expect((await attemptsOf()).filter((row) => row.status === 'succeeded')).toHaveLength(0);
    release();
    await stopping;
    const afterStop = await attemptsOf();
    expect(afterStop.filter((row) => row.status === 'succeeded')).toHaveLength(1);
    expect(afterStop.filter((row) => row.status === 'pending').map((row) => row.claimed_until)).toEqual([null, null]);

    // Sent long before the 60-second lease would have run out.
    const restarted = Date.now();
    second.start(20);
    await expect.poll(() => receiver.arrived.length, SOON).toBe(3);
    expect(Date.now() - restarted).toBeLessThan(10_000);
    expect(new Set(receiver.arrived)).toEqual(new Set(events));
  }, 20_000);
});

describe('an attempt whose lease ran low while it waited for a slot', () => {
  it('is given back and leased afresh before it is sent, so no attempt outlives its lease', async () => {
    // The dispatcher's clock jumps 50 s (of the 60-second lease) while the first attempt waits for its answer.
    let skewMs = 0;
    const leaseLeftMs: Promise<number>[] = [];
    const receiver = await startSlowReceiver((deliveryId) => {
      const now = Date.now() + skewMs;
      leaseLeftMs.push(
        database.db
          .selectFrom('webhook_deliveries')
          .select('claimed_until')
          .where('id', '=', deliveryId)
          .executeTakeFirstOrThrow()
          .then((row) => row.claimed_until!.getTime() - now),
      );
      skewMs = 50_000;
    });
    const sender = newSender();
    const dispatcher = dispatcherFor(sender, { now: () => new Date(Date.now() + skewMs) });
    const { events, attemptsOf } = await threeEventsTo(receiver.url);

    dispatcher.start(20);
    await expect.poll(() => receiver.arrived.length, { timeout: 8_000, interval: 20 }).toBe(3);
    // Each sent with time enough to finish (10 s) before its lease ran out.
    for (const left of await Promise.all(leaseLeftMs)) expect(left).toBeGreaterThan(10_000);
    // The last answer comes a second after its arrival.
    await expect
      .poll(async () => (await attemptsOf()).map((row) => `${row.event_id} ${row.status}`).toSorted(), SOON)
      .toEqual(events.map((id) => `${id} succeeded`).toSorted());
    expect(receiver.arrived.toSorted()).toEqual(events.toSorted());
  }, 20_000);
});

describe('an attempt whose lease ran out while its answer was awaited', () => {
  it('keeps the replacement the housekeeping made as the one that retries: its late failure schedules nothing', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startSlowReceiver(() => {}, { status: 500, until: released });
    const dispatcher = dispatcherFor(newSender());
    const { owner } = await arrangeOwner(database.db);
    await arrangeEndpoint(database.db, owner, { url: receiver.url, enabledEvents: ['item.updated'] });
    const event = await emitItemUpdated(database.db, owner);

    dispatcher.start(20);
    await expect.poll(() => receiver.arrived.length, SOON).toBe(1);
    // The dispatcher looks dead to the others (a pause, a partition): its lease runs out, and the
    // housekeeping closes the attempt as interrupted and makes a new one.
    const [sent] = await findDeliveries(database.db, event);
    await database.db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: new Date(Date.now() - 1) })
      .where('id', '=', sent!.id)
      .execute();
    expect(await replaceAbandonedAttempts(database.db, new Date())).toBe(1);

    // Both answers fail: the late one first, then the replacement's, sent once the owner's slot frees.
    release();
    await expect.poll(() => receiver.arrived.length, SOON).toBe(2);
    await expect
      .poll(
        async () => (await findDeliveries(database.db, event)).filter((row) => row.attempt === 1 && row.status === 'failed').length,
        SOON,
      )
      .toBe(2);
    const rows = await findDeliveries(database.db, event);
    expect(rows.find((row) => row.id === sent!.id)!.error).toMatch(/^interrupted/);
    // One retry, the replacement's: not a second chain of attempts from the late answer.
    expect(rows.filter((row) => row.attempt === 2).map((row) => row.status)).toEqual(['pending']);
  }, 20_000);
});

describe('attempts waiting behind an owner’s busy slots', () => {
  it('are given back and leased afresh as their lease runs low, without waiting for a slot to free', async () => {
    let skewMs = 0;
    // The one slot stays busy for 5 s; the clock jumps 50 s (of the 60-second lease) as its attempt arrives.
    const receiver = await startSlowReceiver(() => (skewMs = 50_000), { afterMs: 5_000 });
    const sender = newSender();
    const dispatcher = dispatcherFor(sender, { now: () => new Date(Date.now() + skewMs) });
    const { attemptsOf } = await threeEventsTo(receiver.url);
    const waiting = async () => (await attemptsOf()).filter((row) => row.status === 'pending' && !receiver.arrived.includes(row.event_id));

    dispatcher.start(20);
    await expect.poll(() => receiver.arrived.length, SOON).toBe(1);
    // Long before the slot frees, both waiting attempts hold a new lease of a full minute.
    const leasedAfresh = async () =>
      (await waiting()).filter((row) => row.claimed_until !== null && row.claimed_until.getTime() > Date.now() + skewMs + 50_000).length;
    await expect.poll(leasedAfresh, { timeout: 3_000, interval: 20 }).toBe(2);
    expect(receiver.arrived).toHaveLength(1);
  }, 20_000);
});

describe('giving an attempt back', () => {
  it('clears only the lease it holds: one another dispatcher took meanwhile stays', async () => {
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner);
    const { id } = await arrangeDelivery(database.db, endpoint.id, { createdAt: new Date(), status: 'pending' });
    const leaseOf = async () =>
      (await database.db.selectFrom('webhook_deliveries').select('claimed_until').where('id', '=', id).executeTakeFirstOrThrow())
        .claimed_until;
    const ours = new Date(Date.now() + 60_000);
    const theirs = new Date(Date.now() + 90_000);
    await database.db.updateTable('webhook_deliveries').set({ claimed_until: theirs }).where('id', '=', id).execute();

    await releaseClaimedDeliveries(database.db, [{ id, claimedUntil: ours }]);
    expect(await leaseOf()).toEqual(theirs);
    await releaseClaimedDeliveries(database.db, [{ id, claimedUntil: theirs }]);
    expect(await leaseOf()).toBeNull();
  });
});
