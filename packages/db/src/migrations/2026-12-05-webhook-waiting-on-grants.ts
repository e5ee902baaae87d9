import { type Kysely, sql } from 'kysely';

// Frozen in time. webhook_deliveries_waiting exists for the grant sweep, whose statements ask for
// pending or held deliveries of events other than `grant.*`. A claim's per-endpoint scan asks
// `status = 'pending'`, which implied the index's old predicate: with statistics from before a burst
// (nothing pending) the planner took its full scan and sorted the whole backlog, and a claim read
// every pending row (60,033 in a test where a few dozen were needed). Its predicate now names what the sweep asks and a claim
// never does, so the planner cannot pick it for a claim, whatever the statistics say.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_deliveries_waiting`.execute(db);
  await sql`
    create index webhook_deliveries_waiting on webhook_deliveries (event_id)
    where status in ('pending', 'held') and event_type not like 'grant.%'
  `.execute(db);
}
