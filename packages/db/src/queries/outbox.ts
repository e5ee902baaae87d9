import type { TEventData, TEventType } from '@partner/contracts';
import type { Executor } from './executor.js';

/** Written in the same transaction as the change it reports (transactional outbox, DESIGN.md 5). */
export async function insertOutboxEvent<T extends TEventType>(
  tx: Executor,
  event: { id: string; type: T; restaurantId: string; integratorOrgId?: string | null; data: TEventData<T> },
): Promise<void> {
  await tx
    .insertInto('outbox_events')
    .values({
      id: event.id,
      type: event.type,
      restaurant_id: event.restaurantId,
      integrator_org_id: event.integratorOrgId ?? null,
      data: JSON.stringify(event.data),
    })
    .execute();
}
