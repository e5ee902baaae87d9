import { type Kysely, sql } from 'kysely';

// Frozen in time. Console's audit trail: one row per change made through it (who, what, when, under
// which request id), newest first by (occurred_at, id).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_events (
      id text primary key,
      occurred_at timestamptz(3) not null default now(),
      actor text not null,
      action text not null,
      target_id text,
      request_id text not null,
      status integer not null
    )
  `.execute(db);
  await sql`create index audit_events_newest on audit_events (occurred_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table audit_events`.execute(db);
}
