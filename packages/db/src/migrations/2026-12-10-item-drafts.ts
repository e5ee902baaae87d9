import { type Kysely, sql } from 'kysely';

// Frozen in time. The concierge reads a restaurant's draft dish names on every turn (its reply guard
// withholds them), most recently changed first. With only the sync index to go by, Postgres walked
// every dish of the restaurant to find the few drafts: 20 ms a turn at 50,000 dishes. This index holds
// the drafts alone.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index items_drafts on items (restaurant_id, updated_at desc) where status = 'draft' and deleted_at is null`.execute(db);
}
