import { type Kysely, sql } from 'kysely';

// Frozen in time. Every dispatcher round asks which deliveries are held (to release or expire them)
// and which pending or held ones wait on an integrator's grant. Without these, each question scanned
// the whole delivery history: about 0.7 s a round at 1M delivered rows, growing with every delivery.
// With them a round's cost follows the rows still waiting, which are few.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_held on webhook_deliveries (created_at) where status = 'held'`.execute(db);
  await sql`
    create index webhook_deliveries_waiting on webhook_deliveries (endpoint_id)
    where status in ('pending', 'held') and claimed_until is null
  `.execute(db);
}
