import { type Kysely, sql } from 'kysely';

// Frozen in time. Leasing an attempt sets claimed_until and nothing else, but claimed_until was in
// webhook_deliveries_waiting's predicate, so every lease wrote a new entry in each of the table's
// indexes (four). Out of every index, and with room left on each page (fillfactor), a lease is a HOT
// update: one new row version on the same page, no index touched. The index's readers (the grant
// sweep) still ask `claimed_until is null`, now of the heap row. It is keyed on event_id, which they
// join on, rather than endpoint_id: keyed on endpoint_id it was a second way to a claim's per-endpoint
// scan, and a planner that thought little was pending took it and sorted the whole backlog.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_deliveries_waiting`.execute(db);
  await sql`create index webhook_deliveries_waiting on webhook_deliveries (event_id) where status in ('pending', 'held')`.execute(db);
  await sql`alter table webhook_deliveries set (fillfactor = 80)`.execute(db);
}
