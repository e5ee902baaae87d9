import { sql } from 'kysely';
import type { TEventData, TEventType } from '@partner/contracts';
import { currentTraceparent } from '@partner/tracing';
import type { Executor } from './reads/executor.js';

/**
 * The channel a trigger notifies when a transaction that wrote to the outbox commits (once, however
 * many rows and statements it wrote), for the dispatchers to LISTEN on. Migration
 * 2026-12-11-outbox-notify spells it out: keep the two equal.
 */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * A notification on the outbox's channel that is not an event: a listener's probe of its own LISTEN.
 * Notifications reach only the database they were sent in: send it through a connection to the one
 * the listener should hear.
 */
export async function notifyOutboxChannel(db: Executor, payload: string): Promise<void> {
  await sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})`.execute(db);
}

/**
 * Producers (console's item and grant writes, the webhooks service's menu.updated coalescer) append an
 * event in the same transaction as the change it reports (transactional outbox). Appending is the only
 * write a producer makes; the webhooks dispatcher alone consumes the table (docs/architecture.md). A
 * traced request leaves its trace context on the row, for the deliveries' traces to link back to.
 */
export async function insertOutboxEvent<T extends TEventType>(
  tx: Executor,
  event: {
    id: string;
    type: T;
    restaurantId: string;
    integratorOrgId?: string | null;
    data: TEventData<T>;
    /** Item events: the dish was published before or after the change (see OutboxEventsTable). */
    touchesPublishedMenu?: boolean;
  },
): Promise<void> {
  await tx
    .insertInto('outbox_events')
    .values({
      id: event.id,
      type: event.type,
      restaurant_id: event.restaurantId,
      integrator_org_id: event.integratorOrgId ?? null,
      data: JSON.stringify(event.data),
      touches_published_menu: event.touchesPublishedMenu ?? null,
      trace_context: currentTraceparent(),
    })
    .execute();
}

/**
 * Not an event: a note that a restaurant's published menu changed other than through a dish (a section
 * added, a field of the restaurant that the menu shows edited). The webhooks dispatcher folds it into
 * the restaurant's burst of menu changes, so a menu.updated follows, and delivers it to no endpoint.
 * Written, like an event, in the transaction of the change it reports.
 */
export const MENU_CHANGE_NOTE = 'menu.changed';

export async function insertMenuChangeNote(tx: Executor, note: { id: string; restaurantId: string }): Promise<void> {
  await tx
    .insertInto('outbox_events')
    .values({
      id: note.id,
      type: MENU_CHANGE_NOTE,
      restaurant_id: note.restaurantId,
      data: JSON.stringify({ restaurantId: note.restaurantId }),
      trace_context: currentTraceparent(),
    })
    .execute();
}
