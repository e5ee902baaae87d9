import { type Kysely, sql } from 'kysely';

// Frozen in time. Retention deletes finished deliveries past the delivery log's retention, oldest
// first, in bounded batches: each batch is a range of this index, never a scan of the history, and
// unfinished deliveries (pending, held) are not in it, so retention cannot reach them. (Outbox events
// are walked in `seq` order on the primary key: no index of their own.)
// webhook_deliveries_due goes: no statement reads it since claims go per endpoint
// (webhook_deliveries_endpoint_due), and every attempt wrote it twice (insert and claim).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index webhook_deliveries_finished on webhook_deliveries (created_at)
    where status in ('succeeded', 'failed', 'expired', 'skipped')
  `.execute(db);
  await sql`drop index webhook_deliveries_due`.execute(db);
}
