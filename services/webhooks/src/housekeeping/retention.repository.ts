import { sql } from 'kysely';
import type { Executor } from '@partner/db';

/** An outbox event's place in the fanned-out index (`outbox_events_fanned_out`). */
export interface FannedOutPosition {
  fannedOutAt: Date;
  seq: number;
}

/**
 * Up to `limit` finished attempts (succeeded, failed, expired, skipped) created before `before`, oldest
 * first, deleted; the ids of their events. Pending and held attempts are never taken, however old.
 */
export async function deleteFinishedDeliveries(tx: Executor, before: Date, limit: number): Promise<{ deleted: number; eventIds: string[] }> {
  const { rows } = await sql<{ event_id: string }>`
    with doomed as (
      select id from webhook_deliveries
      where status in ('succeeded', 'failed', 'expired', 'skipped') and created_at < ${before}
      order by created_at
      limit ${limit}
      for update skip locked
    )
    delete from webhook_deliveries d using doomed where d.id = doomed.id
    returning d.event_id
  `.execute(tx);
  return { deleted: rows.length, eventIds: [...new Set(rows.map((row) => row.event_id))] };
}

/** These events, where fanned out before `before`, locked for deletion (an event a resend holds is passed over). */
export async function lockFannedOutEvents(tx: Executor, ids: readonly string[], before: Date): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .selectFrom('outbox_events')
    .select('seq')
    .where('id', '=', sql<string>`any(${ids}::text[])`)
    .where('fanned_out_at', '<', before)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((row) => row.seq);
}

/** The next `limit` events fanned out before `before`, after `after` in fan-out order, locked for deletion. */
export async function lockFannedOutEventsAfter(
  tx: Executor,
  after: FannedOutPosition | null,
  before: Date,
  limit: number,
): Promise<{ seq: number; fanned_out_at: Date }[]> {
  const { rows } = await sql<{ seq: number; fanned_out_at: Date }>`
    select seq, fanned_out_at from outbox_events
    where fanned_out_at is not null and fanned_out_at < ${before}
      and (fanned_out_at, seq) > (${after?.fannedOutAt ?? new Date(0)}, ${after?.seq ?? 0})
    order by fanned_out_at, seq
    limit ${limit}
    for update skip locked
  `.execute(tx);
  return rows;
}

/**
 * Of these locked events, those no delivery refers to any more, deleted. A statement of its own, after
 * the lock: it sees every delivery committed before (a resend or recovery locks the event to add one).
 */
export async function deleteEventsWithoutDeliveries(tx: Executor, seqs: readonly number[]): Promise<number> {
  if (seqs.length === 0) return 0;
  const result = await sql`
    delete from outbox_events o
    where o.seq = any(${seqs}::bigint[])
      and not exists (select 1 from webhook_deliveries d where d.event_id = o.id)
  `.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}
