import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '@partner/db';

export interface DeliveredHistory {
  /** The endpoint the deliveries were made to. */
  endpointId: string;
  /** The restaurant the events are about. */
  restaurantId: string;
  /** How many deliveries, each of an event of its own. */
  count: number;
  /** Their `created_at` (and their events' fan-out) are spread evenly over [since, until): by default the last 24 hours. */
  since?: Date;
  until?: Date;
  /** Rows one statement writes. */
  batchSize?: number;
}

/**
 * The history a busy platform accumulates, fast: `count` succeeded deliveries to one endpoint, each of
 * an `item.updated` event of its own already fanned out, one `insert … select generate_series` per
 * batch and table, then ANALYZE. For scale benchmarks: seed 1M or 10M rows, then measure the dispatcher beside it.
 * Keep the range inside the retention (the default is), or the dispatcher's housekeeping deletes them.
 */
export async function seedDeliveredHistory(db: Executor, history: DeliveredHistory): Promise<void> {
  const until = history.until ?? new Date();
  const since = history.since ?? new Date(until.getTime() - 24 * 3600_000);
  const stepMs = (until.getTime() - since.getTime()) / Math.max(1, history.count);
  const batchSize = history.batchSize ?? 250_000;
  const tag = randomBytes(4).toString('hex');
  const data = JSON.stringify({ itemId: 'itm_history', restaurantId: history.restaurantId, itemSlug: 'dish', itemName: 'Dish' });
  for (let first = 0; first < history.count; first += batchSize) {
    const last = Math.min(history.count, first + batchSize) - 1;
    const at = sql`${since}::timestamptz + (g * ${stepMs}::double precision) * interval '1 millisecond'`;
    await sql`
      insert into outbox_events (id, type, restaurant_id, data, created_at, fanned_out_at)
      select 'evt_hist' || ${tag} || g, 'item.updated', ${history.restaurantId}, ${data}::jsonb, ${at}, ${at}
      from generate_series(${first}::int, ${last}::int) g
    `.execute(db);
    await sql`
      insert into webhook_deliveries (id, event_id, event_type, endpoint_id, attempt, status, response_status, duration_ms, created_at)
      select 'whd_hist' || ${tag} || g, 'evt_hist' || ${tag} || g, 'item.updated', ${history.endpointId}, 1, 'succeeded', 204, 5, ${at}
      from generate_series(${first}::int, ${last}::int) g
    `.execute(db);
  }
  // Statistics as a running platform's autovacuum would have gathered them: plans as in production.
  await sql`analyze webhook_deliveries, outbox_events`.execute(db);
}
