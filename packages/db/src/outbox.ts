import type { TEventData, TEventType } from '@partner/contracts';
import { currentTraceparent } from '@partner/tracing';
import type { Executor } from './reads/executor.js';

/**
 * The channel a trigger notifies when a transaction that wrote to the outbox commits (once, however
 * many rows and statements it wrote), for the dispatchers to LISTEN on (migration 2026-12-11-outbox-notify, which spells it out: keep them equal).
 */
export const OUTBOX_CHANNEL = 'outbox_events';

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
