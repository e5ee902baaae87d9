import { sql } from 'kysely';
import type { Executor } from '@partner/db';

/**
 * Up to `limit` finished attempts (succeeded, failed, expired, skipped) created before `before`, oldest
 * first, deleted; the ids of their events. Pending and held attempts are never taken, however old.
 */
export async function deleteFinishedDeliveries(
  tx: Executor,
  before: Date,
  limit: number,
): Promise<{ deleted: number; eventIds: string[] }> {
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

/** These events (by id or by seq), where fanned out before `before`, locked for deletion (one a resend holds is passed over). */
export async function lockFannedOutEvents(
  tx: Executor,
  events: { ids: readonly string[] } | { seqs: readonly number[] },
  before: Date,
): Promise<number[]> {
  const match = 'ids' in events ? sql`id = any(${events.ids}::text[])` : sql`seq = any(${events.seqs}::bigint[])`;
  const { rows } = await sql<{ seq: number }>`
    select seq from outbox_events where ${match} and fanned_out_at < ${before}
    for update skip locked
  `.execute(tx);
  return rows.map((row) => row.seq);
}

/** The next `limit` events after `afterSeq` in outbox order, with their fan-out time (null: not yet). */
export async function findEventsAfter(
  db: Executor,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; fanned_out_at: Date | null }[]> {
  return db.selectFrom('outbox_events').select(['seq', 'fanned_out_at']).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
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
