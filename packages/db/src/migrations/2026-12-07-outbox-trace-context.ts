import { type Kysely, sql } from 'kysely';

// Frozen in time. The W3C traceparent of the request that wrote an event, when it was traced: the
// deliveries of the event link back to it. Null when tracing was off.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table outbox_events add column trace_context text`.execute(db);
}
