import { type Kysely, sql } from 'kysely';

// Frozen in time. Every committed write to the outbox wakes the webhooks dispatchers listening on the
// channel 'outbox_events' (OUTBOX_CHANNEL in outbox.ts names the same; the listener's tests hold them
// together), so an event goes out at once instead of at the dispatcher's next poll. Per statement: a
// bulk insert notifies once, and Postgres folds a transaction's identical notifications into one,
// delivered at commit (a rolled-back write wakes nobody).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_outbox_event() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('outbox_events', '');
      return null;
    end $fn$
  `.execute(db);
  await sql`
    create trigger outbox_events_notify after insert on outbox_events
    for each statement execute function notify_outbox_event()
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger outbox_events_notify on outbox_events`.execute(db);
  await sql`drop function notify_outbox_event()`.execute(db);
}
