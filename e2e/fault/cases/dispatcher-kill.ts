import { sleep } from '../cleanup.ts';
import { ms, n, type CaseReport } from '../report.ts';
import type { FaultContext } from './context.ts';

const CHANGES = 1000;
const CREATES = 250;
const WRITERS = 8;
/** The kill comes once this many of the burst's events reached the receiver (or half the changes are in). */
const KILL_AFTER_DELIVERIES = 300;
const DELIVERY_WAIT_MS = 90_000;

/**
 * Case 1: the webhooks service (with its dispatcher) SIGKILLed during a burst of 1,000 item changes
 * made through the console, then started again: every outbox event of the endpoint's types must reach
 * the receiver.
 */
export async function dispatcherKill(ctx: FaultContext): Promise<CaseReport> {
  const { stack, seeded, receiver, db } = ctx;
  const receivedBefore = receiver.received.length;
  const logBefore = stack.logBytes();
  const created: string[] = [];
  const consoleErrors = new Map<string, number>();
  let next = 0;
  let committed = 0;
  const writer = async () => {
    while (next < CHANGES) {
      const i = next++;
      try {
        if (i < CREATES) {
          created.push(
            (
              await seeded.console.createItem(seeded.restaurantId, {
                name: `Burst dish ${i}`,
                priceCents: 500 + i,
                sectionId: seeded.sectionId,
              })
            ).id,
          );
        } else {
          const pool = created.length ? created : seeded.itemIds;
          await seeded.console.updateItem(pool[i % pool.length]!, { priceCents: 2000 + i });
        }
        committed++;
      } catch (err) {
        const code = err instanceof Error ? ((err as { code?: string }).code ?? err.message) : String(err);
        consoleErrors.set(code, (consoleErrors.get(code) ?? 0) + 1);
      }
    }
  };
  const burstStartedAt = Date.now();
  const burst = Promise.all(Array.from({ length: WRITERS }, writer));

  while (
    receiver.received.length - receivedBefore < KILL_AFTER_DELIVERIES &&
    committed < CHANGES / 2 &&
    Date.now() - burstStartedAt < 30_000
  ) {
    await sleep(5);
  }
  await stack.kill('webhooks', 'SIGKILL');
  const killedAt = Date.now();
  const deliveredAtKill = receiver.received.length - receivedBefore;
  const committedAtKill = committed;
  await sleep(1000);
  await stack.restart('webhooks');
  const restartedAt = Date.now();
  await burst;
  const burstEndedAt = Date.now();

  const expectedIds = async () =>
    new Set(
      (
        await db
          .selectFrom('outbox_events')
          .select('id')
          .where('restaurant_id', '=', seeded.restaurantId)
          .where('type', 'in', seeded.endpointEvents)
          .execute()
      ).map((row) => row.id),
    );
  const receipts = () => {
    const counts = new Map<string, number>();
    for (const hit of receiver.received) {
      const id = (JSON.parse(hit.body) as { id: string }).id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  const pendingDeliveries = async () =>
    Number(
      (
        await db
          .selectFrom('webhook_deliveries')
          .select(db.fn.countAll<number>().as('count'))
          .where('endpoint_id', '=', seeded.endpointId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).count,
    );
  // Every event received, and no attempt left pending: an attempt the killed dispatcher had leased is
  // sent again once its lease ends, and only then would its duplicate show.
  let expected = await expectedIds();
  let pending = await pendingDeliveries();
  while (Date.now() - burstEndedAt < DELIVERY_WAIT_MS) {
    const counts = receipts();
    if (pending === 0 && [...expected].every((id) => counts.has(id))) break;
    await sleep(250);
    expected = await expectedIds();
    pending = await pendingDeliveries();
  }
  const counts = receipts();
  const lost = [...expected].filter((id) => !counts.has(id));
  const duplicated = [...expected].reduce((sum, id) => sum + Math.max(0, (counts.get(id) ?? 0) - 1), 0);
  const firstReceipt = new Map<string, number>();
  for (const hit of receiver.received) {
    const id = (JSON.parse(hit.body) as { id: string }).id;
    if (!firstReceipt.has(id)) firstReceipt.set(id, hit.at);
  }
  const lastFirstReceipt = Math.max(...[...expected].map((id) => firstReceipt.get(id) ?? 0));
  const notes = [
    `${n(CREATES)} creates then ${n(CHANGES - CREATES)} price updates, ${WRITERS} console writers; the endpoint takes ${seeded.endpointEvents.join(', ')}.`,
    'A duplicate is an attempt that was in flight at the kill and sent again (at-least-once): same event id, new delivery id.',
  ];
  if (lost.length) {
    const statuses = await db
      .selectFrom('webhook_deliveries')
      .select(['status', db.fn.countAll<number>().as('count')])
      .where('event_id', 'in', lost.slice(0, 500))
      .groupBy('status')
      .execute();
    notes.push(
      `Deliveries of the lost events: ${statuses.map((row) => `${row.status} ${row.count}`).join(', ') || 'none written'}; first lost: ${lost.slice(0, 3).join(', ')}.`,
    );
  }
  return {
    title: `1. Dispatcher SIGKILLed during a burst of ${n(CHANGES)} item changes, webhooks service restarted`,
    rows: [
      { figure: 'item changes committed (console)', value: `${n(committed)} of ${n(CHANGES)} in ${ms(burstEndedAt - burstStartedAt)}` },
      { figure: 'console errors', value: consoleErrors.size ? [...consoleErrors].map(([code, c]) => `${code}: ${c}`).join('; ') : 'none' },
      { figure: 'killed after', value: `${n(committedAtKill)} changes committed, ${n(deliveredAtKill)} events received` },
      { figure: 'webhooks service healthy again', value: `${ms(restartedAt - killedAt)} after the kill (1 s of it waiting)` },
      { figure: 'outbox events for the endpoint', value: n(expected.size) },
      { figure: 'events received (distinct)', value: n(expected.size - lost.length) },
      { figure: 'events lost', value: n(lost.length), target: '0', met: lost.length === 0 },
      { figure: 'events duplicated', value: n(duplicated) },
      { figure: 'last event received (first copy)', value: `${ms(lastFirstReceipt - restartedAt)} after the restart` },
      { figure: 'deliveries still pending at the end', value: n(pending) },
      { figure: 'service log bytes written', value: n(stack.logBytes() - logBefore) },
    ],
    notes,
  };
}
