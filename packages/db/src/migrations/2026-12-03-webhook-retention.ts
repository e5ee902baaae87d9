import { type Kysely, sql } from 'kysely';

// Frozen in time. Retention deletes finished deliveries past the delivery log's retention, oldest
// first, and outbox events fanned out long enough ago, in bounded batches: each batch is a range of
// one of these indexes, never a scan of the history. Unfinished deliveries (pending, held) are in
// neither index, so retention cannot reach them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index webhook_deliveries_finished on webhook_deliveries (created_at)
    where status in ('succeeded', 'failed', 'expired', 'skipped')
  `.execute(db);
  await sql`create index outbox_events_fanned_out on outbox_events (fanned_out_at, seq) where fanned_out_at is not null`.execute(db);
}
