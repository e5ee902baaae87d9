import { sql } from 'kysely';
import type { Executor } from '@partner/db';

export type UsageMetric = 'api_requests' | 'concierge_messages' | 'embed_views';

export interface UsageCounter {
  restaurantId: string;
  metric: UsageMetric;
  periodStart: Date;
  limit: number;
}

/**
 * Takes up to `wanted` units of a restaurant's allowance for the period, atomically: the counter never
 * passes the limit, whatever runs concurrently. Returns how many units were granted (0 when used up).
 * A counter already past the limit (the owner lowered it) keeps its count: what was used stays used.
 */
export async function consumeUsage(db: Executor, counter: UsageCounter, wanted: number): Promise<number> {
  if (counter.limit <= 0 || wanted <= 0) return 0;
  const key = sql`restaurant_id = ${counter.restaurantId} and metric = ${counter.metric} and period_start = ${counter.periodStart}`;
  for (;;) {
    // One statement once the period's row exists: lock it, read it, raise it to at most the limit.
    const { rows } = await sql<{ granted: number }>`
      update usage_counters as c
      set used = c.used + greatest(0, least(${wanted}::int, ${counter.limit}::int - c.used))
      from (select used as before from usage_counters where ${key} for update) as old
      where c.restaurant_id = ${counter.restaurantId} and c.metric = ${counter.metric} and c.period_start = ${counter.periodStart}
      returning c.used - old.before as granted
    `.execute(db);
    if (rows[0]) return rows[0].granted;
    await sql`
      insert into usage_counters (restaurant_id, metric, period_start, used)
      values (${counter.restaurantId}, ${counter.metric}, ${counter.periodStart}, 0)
      on conflict do nothing
    `.execute(db);
  }
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
