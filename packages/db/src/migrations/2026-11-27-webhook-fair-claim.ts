import { type Kysely, sql } from 'kysely';

// Frozen in time. The dispatcher claims per endpoint (owners take turns): each endpoint's pending
// attempts in due order, and the endpoints that have any, found by skipping through this index.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index webhook_deliveries_endpoint_due on webhook_deliveries (endpoint_id, next_attempt_at, id)
    where status = 'pending'
  `.execute(db);
}
