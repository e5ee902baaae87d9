import { type Kysely, sql } from 'kysely';

// Frozen in time. Embed views counted by themselves for the dashboard (each is also an API request).
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'usage_counters'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%metric%'
  `.execute(db);
  for (const { name } of rows) await sql`alter table usage_counters drop constraint ${sql.id(name)}`.execute(db);
  await sql`
    alter table usage_counters add constraint usage_counters_metric
    check (metric in ('api_requests', 'concierge_messages', 'embed_views'))
  `.execute(db);
}
