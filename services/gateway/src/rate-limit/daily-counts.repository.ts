import { sql } from 'kysely';
import type { Db } from '@partner/db';

/**
 * Counts one request against two daily buckets in one statement, each only while it is under its cap:
 * the first bucket, and the second only if the first counted it. Null where a bucket was at its cap
 * (and so not counted).
 */
export async function countWithinDailyCaps(
  db: Db,
  day: number,
  first: { bucket: string; cap: number },
  second: { bucket: string; cap: number },
): Promise<{ first: number | null; second: number | null }> {
  const { rows } = await sql<{ first: number | null; second: number | null }>`
    with first_day as (
      insert into gateway_daily_counts as c (bucket, day, requests) values (${first.bucket}, ${day}, 1)
      on conflict (bucket, day) do update set requests = c.requests + 1 where c.requests < ${first.cap}
      returning c.requests
    ), second_day as (
      insert into gateway_daily_counts as c (bucket, day, requests)
      select ${second.bucket}, ${day}, 1 where exists (select 1 from first_day)
      on conflict (bucket, day) do update set requests = c.requests + 1 where c.requests < ${second.cap}
      returning c.requests
    )
    select (select requests from first_day) as first, (select requests from second_day) as second
  `.execute(db);
  return rows[0]!;
}

export async function deleteDailyCountsBefore(db: Db, day: number): Promise<void> {
  await db.deleteFrom('gateway_daily_counts').where('day', '<', day).execute();
}
