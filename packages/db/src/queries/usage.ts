import { sql } from 'kysely';
import type { Executor } from './executor.js';

export type UsageMetric = 'api_requests' | 'concierge_messages';

/**
 * Takes one unit of a restaurant's allowance for the period, atomically: the row lock makes
 * concurrent takers queue, and the update only happens below the limit. Returns the new count, or
 * null when the allowance is used up (nothing is written then).
 */
export async function consumeUsage(
  db: Executor,
  counter: { restaurantId: string; metric: UsageMetric; periodStart: Date; limit: number },
): Promise<number | null> {
  if (counter.limit <= 0) return null;
  const { rows } = await sql<{ used: number }>`
    insert into usage_counters (restaurant_id, metric, period_start, used)
    values (${counter.restaurantId}, ${counter.metric}, ${counter.periodStart}, 1)
    on conflict (restaurant_id, metric, period_start)
    do update set used = usage_counters.used + 1 where usage_counters.used < ${counter.limit}
    returning used
  `.execute(db);
  return rows[0]?.used ?? null;
}

export async function readUsage(db: Executor, restaurantId: string, metric: UsageMetric, periodStart: Date): Promise<number> {
  const row = await db
    .selectFrom('usage_counters')
    .select('used')
    .where('restaurant_id', '=', restaurantId)
    .where('metric', '=', metric)
    .where('period_start', '=', periodStart)
    .executeTakeFirst();
  return row?.used ?? 0;
}
