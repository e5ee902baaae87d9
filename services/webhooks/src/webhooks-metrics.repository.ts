import { sql } from 'kysely';
import type { Executor } from '@partner/db';

/** Deliveries due now and not yet attempted, counted up to `cap` (through the pending rows' index `webhook_deliveries_endpoint_due`). */
export async function countDueDeliveries(db: Executor, cap: number): Promise<number> {
  const { rows } = await sql<{ due: number }>`
    select count(*)::int as due from (
      select 1 from webhook_deliveries where status = 'pending' and next_attempt_at <= now() limit ${cap}
    ) due`.execute(db);
  return rows[0]?.due ?? 0;
}

/** Seconds the longest-waiting due delivery has been due; 0 when none is. */
export async function oldestDueAgeSeconds(db: Executor): Promise<number> {
  const { rows } = await sql<{ age: number | null }>`
    select extract(epoch from now() - min(next_attempt_at))::float8 as age
    from webhook_deliveries where status = 'pending' and next_attempt_at <= now()`.execute(db);
  return Math.max(0, rows[0]?.age ?? 0);
}

/** Age in seconds of the oldest event not yet fanned out (`outbox_events_pending`); 0 when none waits. */
export async function outboxLagSeconds(db: Executor): Promise<number> {
  const { rows } = await sql<{ age: number | null }>`
    select extract(epoch from now() - created_at)::float8 as age
    from outbox_events where fanned_out_at is null order by seq limit 1`.execute(db);
  return Math.max(0, rows[0]?.age ?? 0);
}

/** Endpoints disabled and not deleted. */
export async function countDisabledEndpoints(db: Executor): Promise<number> {
  const { rows } = await sql<{ disabled: number }>`
    select count(*)::int as disabled from webhook_endpoints where status = 'disabled' and deleted_at is null`.execute(db);
  return rows[0]?.disabled ?? 0;
}
